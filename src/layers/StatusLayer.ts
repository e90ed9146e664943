/** The layer `dossier status` uses: what `next` reads (`NextLayer`), and the grants. */
import * as Layer from "effect/Layer"
import { GrantsFolder } from "./GrantsLayer.js"
import { NextLayer } from "./NextLayer.js"
import { WorkTreeLive } from "./WorkTreeLive.js"

export const StatusLayer = (dir: string) =>
  GrantsFolder.pipe(Layer.provideMerge(WorkTreeLive), Layer.provideMerge(NextLayer(dir)))
