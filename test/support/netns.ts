/**
 * Hosts for the many-host tests: each a Linux network namespace joined to this one by a veth
 * pair, with addresses from 198.18.0.0/15 (reserved for network tests, RFC 2544: nothing real
 * lives there): this side `198.18.<i>.1`, the namespace's side `198.18.<i>.2`. A process run in
 * the namespace reaches this side's address (where the test's cluster listens) and nothing
 * else; `linkDown` cuts it off as a pulled cable would. Needs root and `ip`; `netnsAvailable`
 * says whether this machine can (suites skip with a one-line note otherwise).
 */
import { spawnSync } from "node:child_process"

const ip = (args: ReadonlyArray<string>, allowFail = false) => {
  const r = spawnSync("ip", args, { encoding: "utf8" })
  if (r.status !== 0 && !allowFail) throw new Error(`ip ${args.join(" ")} failed (${r.status}): ${r.stderr}`)
  return r.status === 0
}

const probe = (): boolean => {
  if (typeof process.getuid !== "function" || process.getuid() !== 0) return false
  const name = `dprobe${process.pid % 100_000}`
  const ok = spawnSync("ip", ["netns", "add", name], { encoding: "utf8" }).status === 0
  if (ok) spawnSync("ip", ["netns", "del", name])
  return ok
}

/** Whether network namespaces can be made here (root, `ip`, the capability to). */
export const netnsAvailable = probe()
export const netnsSkipNote = "network-namespace tests skipped: they need root and `ip netns`."
if (!netnsAvailable) console.warn(netnsSkipNote)

export interface Host {
  /** The namespace's name (`ip netns exec <name> …`). */
  readonly name: string
  /** This side's address: where the namespace reaches the cluster. */
  readonly serverAddress: string
  /** The namespace's own address (the client address the cluster sees). */
  readonly clientAddress: string
  /** The command line that runs `argv` inside the namespace. */
  readonly wrap: (argv: ReadonlyArray<string>) => [string, Array<string>]
  /** Cut the link (this side of the veth down), or bring it back. */
  readonly linkDown: () => void
  readonly linkUp: () => void
}

export interface Hosts {
  readonly hosts: ReadonlyArray<Host>
  /** Remove every namespace and veth made here. */
  readonly remove: () => void
}

/** Make `n` hosts (namespaces) numbered from `first` (each test file its own range: 1-250). */
export const makeHosts = (n: number, first = 1): Hosts => {
  const made: Array<Host> = []
  const tag = process.pid % 10_000
  const remove = () => {
    for (const h of made) ip(["netns", "del", h.name], true)
    for (let i = 0; i < n; i++) ip(["link", "del", `dv${tag}h${first + i}`], true)
  }
  try {
    for (let i = 0; i < n; i++) {
      const k = first + i
      const name = `dossier-${tag}-${k}`
      const outer = `dv${tag}h${k}`
      const inner = `dv${tag}n${k}`
      const serverAddress = `198.18.${k}.1`
      const clientAddress = `198.18.${k}.2`
      ip(["netns", "add", name])
      const host: Host = {
        name,
        serverAddress,
        clientAddress,
        wrap: (argv) => ["ip", ["netns", "exec", name, ...argv]],
        linkDown: () => void ip(["link", "set", outer, "down"]),
        linkUp: () => void ip(["link", "set", outer, "up"])
      }
      made.push(host)
      ip(["link", "add", outer, "type", "veth", "peer", "name", inner])
      ip(["link", "set", inner, "netns", name])
      ip(["addr", "add", `${serverAddress}/30`, "dev", outer])
      ip(["link", "set", outer, "up"])
      ip(["netns", "exec", name, "ip", "addr", "add", `${clientAddress}/30`, "dev", inner])
      ip(["netns", "exec", name, "ip", "link", "set", inner, "up"])
      ip(["netns", "exec", name, "ip", "link", "set", "lo", "up"])
    }
  } catch (e) {
    remove()
    throw e
  }
  return { hosts: made, remove }
}
