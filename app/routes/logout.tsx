import { redirect, type ActionFunctionArgs } from "@remix-run/node";
import { endSession } from "../server/auth/session.server.ts";

export const action = ({ request }: ActionFunctionArgs) => endSession(request);
export const loader = () => redirect("/");
