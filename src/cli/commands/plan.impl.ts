import * as Effect from "effect/Effect"
import { respond } from "../Render.js"

export const inspect = (o: { workdir: string; json: boolean }) =>
  respond(o.json, Effect.succeed({ state: "none" as const, workdir: o.workdir.length }), () => "no plan")
export const start = (o: { json: boolean }) => respond(o.json, Effect.succeed({}), () => "")
export const checkpoint = (o: { json: boolean }) => respond(o.json, Effect.succeed({}), () => "")
