/**
 * What the whole app knows of a crowd-channel folder without loading its server code: the identity
 * namespace its workers are stored under (the folder's name), the channels (ways in) it declares,
 * its row name on the dashboard, whether entry alone verifies a worker, and the name and help line
 * of its `socrates` command. Pure: the statistics, the dashboard's components and the CLI's help
 * read it (registry.ts).
 */
export interface ChannelFolder {
  /** The namespace in annotators.channel (e.g. `mturk:<WorkerId>`); also the folder's name. */
  readonly id: string;
  /** Its ways in (crowd channel ids, one server entry each); MTurk's batch and HITs share a namespace. */
  readonly channelIds: readonly string[];
  /** Its row in the dashboard's Channels table. */
  readonly dashboardName: string;
  /**
   * True when entering verifies the worker (a signed link); false when only the platform's later
   * confirmation does (MTurk lists the assignment, a Prolific export the session): labels of the
   * second kind are stored pending until then (annotation/label-status.server.ts).
   */
  readonly confirmedAtEntry: boolean;
  /** Its `socrates` command group (command.server.ts in the folder, loaded only when it runs), or null. */
  readonly command: { readonly name: string; readonly description: string } | null;
}

/** Keeps the literal ids, so the registry derives its id types from the folders. */
export function defineChannelFolder<const F extends ChannelFolder>(folder: F): F {
  return folder;
}
