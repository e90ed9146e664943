/**
 * The destination policy of `SafeHttp` (pure). A URL is parsed with the WHATWG URL parser (the
 * same parser undici uses, so every spelling of an address — decimal, octal, hex, short forms,
 * percent-encoded or full-width digits — reaches this module already normalized), and every
 * literal or resolved address is classified with ipaddr.js. Only public unicast is allowed.
 *
 * The table of refused ranges is documented in docs/ingest.md; keep the two in step.
 */
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import ipaddr from "ipaddr.js"
import { isIP } from "node:net"
import { clipped } from "./Clip.js"
import { MAX_URL_LENGTH } from "./IngestContent.js"
import { CredentialsInUrl, ForbiddenDestination, InvalidUrl, UnsupportedScheme } from "./IngestErrors.js"

/** Decides whether an address may be connected to: `None` allows it, `Some(range)` refuses it. */
export type AddressPolicy = (address: string) => Option.Option<string>

/** Longest URL accepted (characters), shared with an import's origin (./IngestContent.ts). */
export { MAX_URL_LENGTH } from "./IngestContent.js"

type Range = readonly [ipaddr.IPv4 | ipaddr.IPv6, number]

const v4 = (cidr: string): Range => ipaddr.IPv4.parseCIDR(cidr)
const v6 = (cidr: string): Range => ipaddr.IPv6.parseCIDR(cidr)

/** Cloud metadata endpoints, named before their broader range. */
const METADATA: ReadonlyArray<Range> = [
  v4("169.254.169.254/32"), // AWS, GCP, Azure, OpenStack, DigitalOcean
  v4("169.254.170.2/32"), // AWS ECS task metadata
  v4("169.254.169.123/32"), // AWS time sync
  v4("100.100.100.200/32"), // Alibaba Cloud
  v4("192.0.0.192/32"), // Oracle Cloud
  v6("fd00:ec2::254/128"), // AWS IMDS over IPv6
  v6("fd00:ec2::123/128")
]

/**
 * IPv6 ranges ipaddr.js 2.x leaves as `unicast` (or that we want named explicitly even when a
 * later ipaddr.js names them): checked in this order after the ranges ipaddr.js names.
 */
const IPV6_EXTRA: ReadonlyArray<readonly [string, Range]> = [
  ["ipv4Compatible", v6("::/96")], // deprecated IPv4-compatible ::a.b.c.d (RFC 4291)
  ["rfc6052", v6("64:ff9b::/96")], // NAT64 well-known prefix
  ["rfc6052", v6("64:ff9b:1::/48")], // NAT64 local-use prefix (RFC 8215)
  ["6to4", v6("2002::/16")],
  ["teredo", v6("2001::/32")],
  ["dummyPrefix", v6("100:0:0:1::/64")], // RFC 9780
  ["segmentRouting", v6("5f00::/16")], // RFC 9602
  ["documentation", v6("3fff::/20")], // RFC 9637
  ["documentation", v6("2001:db8::/32")] // RFC 3849
]

/** IANA allocates global unicast from 2000::/3 only; everything else is reserved or special. */
const GLOBAL_UNICAST_V6 = v6("2000::/3")

const matches = (addr: ipaddr.IPv4 | ipaddr.IPv6, range: Range): boolean =>
  addr.kind() === range[0].kind() && addr.match(range as [ipaddr.IPv4 | ipaddr.IPv6, number])

const embeddedV4 = (bytes: ReadonlyArray<number>, at: number): ipaddr.IPv4 =>
  new ipaddr.IPv4([bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!])

/** The IPv4 addresses carried inside an IPv6 transition address (for a more precise `range`). */
const embeddedIPv4 = (addr: ipaddr.IPv6, wrapper: string): ReadonlyArray<ipaddr.IPv4> => {
  const b = addr.toByteArray()
  switch (wrapper) {
    case "ipv4Compatible":
    case "rfc6052":
    case "rfc6145":
      return [embeddedV4(b, 12)]
    case "6to4":
      return [embeddedV4(b, 2)]
    case "teredo": {
      // Client address (obfuscated: bitwise not) in bits 96..127, server address in bits 32..63.
      const client = new ipaddr.IPv4(b.slice(12, 16).map((x) => ~x & 0xff))
      return [client, embeddedV4(b, 4)]
    }
    default:
      return []
  }
}

const classifyV4 = (addr: ipaddr.IPv4): Option.Option<string> => {
  if (METADATA.some((r) => matches(addr, r))) return Option.some("metadata")
  const range = addr.range()
  return range === "unicast" ? Option.none() : Option.some(range)
}

const classifyV6 = (addr: ipaddr.IPv6): Option.Option<string> => {
  if (METADATA.some((r) => matches(addr, r))) return Option.some("metadata")
  const named = addr.range()
  if (named !== "unicast") {
    const inner = embeddedIPv4(addr, named).map(classifyV4).find(Option.isSome)
    return Option.some(inner === undefined ? named : `${named}(${inner.value})`)
  }
  for (const [name, range] of IPV6_EXTRA) {
    if (matches(addr, range)) {
      const inner = embeddedIPv4(addr, name).map(classifyV4).find(Option.isSome)
      return Option.some(inner === undefined ? name : `${name}(${inner.value})`)
    }
  }
  if (!matches(addr, GLOBAL_UNICAST_V6)) return Option.some("reserved")
  return Option.none()
}

/**
 * The real policy: public unicast only. Anything that is not a valid address is refused
 * (`invalid`), so the policy fails closed.
 */
export const publicUnicastPolicy: AddressPolicy = (address) => {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6
  try {
    // process() turns IPv4-mapped IPv6 (::ffff:a.b.c.d) into the IPv4 address it stands for.
    parsed = ipaddr.process(address)
  } catch {
    return Option.some("invalid")
  }
  return parsed.kind() === "ipv4" ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6)
}

/** `localhost` and `*.localhost`, any case, with or without trailing dots (refused without a lookup). */
export const isLocalhostName = (hostname: string): boolean => {
  const name = hostname.toLowerCase().replace(/\.+$/, "")
  return name === "localhost" || name.endsWith(".localhost")
}

/**
 * The plain spelling of a name written absolute (`host.` → `host`), or undefined for a name
 * without its trailing dot (and for an address literal, whose dot the URL parser reads away).
 */
export const plainName = (host: string): string | undefined =>
  host.length > 1 && host.endsWith(".") && !host.startsWith("[") ? host.slice(0, -1) : undefined

/**
 * Whether a name has an empty label (`a..b`, `.a`, `a..`): no resolver answers one (DNS labels
 * are never empty; only the root's final dot of an absolute name, `a.b.`, is allowed).
 */
export const hasEmptyLabel = (host: string): boolean => {
  const labels = (host.endsWith(".") ? host.slice(0, -1) : host).split(".")
  return labels.some((label) => label === "")
}

/** Host of a parsed URL without IPv6 brackets. */
export const bareHost = (hostname: string): string =>
  hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname

export interface Target {
  /** The URL as the WHATWG parser normalizes it. */
  readonly url: URL
  /** `url.hostname` (IPv6 literals keep their brackets). */
  readonly host: string
  /** The literal address when the host is an IP literal (already checked), else None. */
  readonly literal: Option.Option<string>
}

export type TargetError = InvalidUrl | UnsupportedScheme | CredentialsInUrl | ForbiddenDestination

/** Check one address against a policy. */
export const checkAddress = (
  policy: AddressPolicy,
  host: string,
  address: string
): Either.Either<string, ForbiddenDestination> =>
  Option.match(policy(address), {
    onNone: () => Either.right(address),
    onSome: (range) => Either.left(new ForbiddenDestination({ host, address, range }))
  })

/**
 * Parse and check a URL (the first one, or a redirect's `Location` resolved against `base`):
 * scheme, credentials, `localhost` names and literal addresses. Names that need DNS are left to
 * the caller, which must check every answer with the same policy.
 */
export const checkUrl = (
  policy: AddressPolicy,
  raw: string,
  base?: string
): Either.Either<Target, TargetError> => {
  const shown = clipped(raw)
  if (raw.length === 0 || raw.length > MAX_URL_LENGTH) return Either.left(new InvalidUrl({ url: shown }))
  let url: URL
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base)
  } catch {
    return Either.left(new InvalidUrl({ url: shown }))
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return Either.left(new UnsupportedScheme({ scheme: url.protocol.replace(/:$/, "") }))
  }
  if (url.username !== "" || url.password !== "") return Either.left(new CredentialsInUrl())
  const host = url.hostname
  if (host === "") return Either.left(new InvalidUrl({ url: shown }))
  if (isLocalhostName(host)) {
    return Either.left(new ForbiddenDestination({ host, address: host, range: "localhost" }))
  }
  const bare = bareHost(host)
  // The same test Node's net.connect uses to skip its lookup: literals are checked here.
  if (isIP(bare) !== 0 || host.startsWith("[")) {
    return Either.map(checkAddress(policy, host, bare), (address) => ({ url, host, literal: Option.some(address) }))
  }
  // A name no resolver can answer is refused here, not sent to DNS to fail as a retryable DnsFailure.
  if (hasEmptyLabel(host)) return Either.left(new InvalidUrl({ url: shown }))
  return Either.right({ url, host, literal: Option.none() })
}
