/**
 * SafeHttp for tests and the offline demo: the same implementation as `SafeHttpLive`, with an
 * injected resolver and policy. The CLI never uses this layer; no flag, environment variable
 * or file can select it.
 */
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import ipaddr from "ipaddr.js"
import { type AddressPolicy, publicUnicastPolicy } from "../domain/DestinationPolicy.js"
import { SafeHttp } from "../services/SafeHttp.js"
import { makeSafeHttp, type Resolver, type SafeHttpConfig } from "./SafeHttpLive.js"

/**
 * The real policy, except that the listed addresses (exactly these, e.g. `127.0.0.1` where a
 * test server listens) are treated as public.
 */
export const policyAllowing = (allowed: ReadonlyArray<string>): AddressPolicy => {
  const normalized = new Set(allowed.map((a) => ipaddr.process(a).toNormalizedString()))
  return (address) => {
    try {
      if (normalized.has(ipaddr.process(address).toNormalizedString())) return Option.none()
    } catch {
      // fall through to the real policy, which refuses what it cannot parse
    }
    return publicUnicastPolicy(address)
  }
}

/** A resolver from a fixed table (host → answers); unknown names fail like NXDOMAIN. */
export const tableResolver = (table: Readonly<Record<string, ReadonlyArray<string>>>): Resolver => async (host) => {
  const answers = table[host.toLowerCase()]
  if (answers === undefined || answers.length === 0) {
    throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: "ENOTFOUND" })
  }
  return answers.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }))
}

export const SafeHttpTest = (config: SafeHttpConfig): Layer.Layer<SafeHttp> =>
  Layer.sync(SafeHttp, () => makeSafeHttp(config))
