/**
 * What the renderer must know about this invocation beyond a command's result: the work folder
 * to name when it was discovered somewhere other than the current directory (`workdirShown`), and
 * the work folder used however it was chosen (`workdirUsed`: a `WorkdirNotFound` names it). Both
 * relative to the current directory. Set once, before the command runs (src/cli/Discover.ts
 * `prepareValues`). No imports: on the start-up path.
 */
export const invocation: { workdirShown: string | undefined; workdirUsed: string | undefined } = {
  workdirShown: undefined,
  workdirUsed: undefined
}
