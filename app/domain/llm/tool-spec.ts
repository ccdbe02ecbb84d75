/**
 * A function the model may call in `callWithTools` (OpenAI `tools`, type "function"). Its own file
 * so prompt code (and the searcher's stand-in) need not load the LLM contract and its role registry.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}
