/**
 * The hostile corpus: URLs an agent might be handed that must never make dossier reach a
 * loopback, private, link-local, metadata or otherwise non-public address. Every entry is
 * refused before any connection. `range` is asserted where given.
 * (These addresses are test data only: nothing ever connects to them.)
 */
export interface Hostile {
  readonly url: string
  readonly tag: "ForbiddenDestination" | "InvalidUrl" | "UnsupportedScheme" | "CredentialsInUrl"
  readonly range?: string
}

const F = (
  url: string,
  range?: string
): Hostile => (range === undefined ? { url, tag: "ForbiddenDestination" } : { url, tag: "ForbiddenDestination", range })

export const corpus: ReadonlyArray<Hostile> = [
  // IPv4 loopback in every spelling the WHATWG parser accepts
  F("http://127.0.0.1/", "loopback"),
  F("http://127.1/", "loopback"),
  F("http://127.0.1/", "loopback"),
  F("http://2130706433/", "loopback"),
  F("http://0x7f000001/", "loopback"),
  F("http://0x7f.0x0.0x0.0x1/", "loopback"),
  F("http://0177.0.0.1/", "loopback"),
  F("http://0177.0000.0000.0001/", "loopback"),
  F("http://017700000001/", "loopback"),
  F("http://0x7f.1/", "loopback"),
  F("http://127.0.0.1./", "loopback"),
  F("http://127.000.000.001/", "loopback"),
  F("http://%31%32%37.0.0.1/", "loopback"),
  F("http://\uff11\uff12\uff17\uff0e\uff10\uff0e\uff10\uff0e\uff11/", "loopback"),
  F("http://\u2460\u2461\u2466.0.0.1/", "loopback"),
  F("http://127\u30020\u30020\u30021/", "loopback"),
  F("http://0x7f.0.0.1%2e/", "loopback"),
  F("http://127.0.0.1:80/", "loopback"),
  F("http://127.0.0.1:8080/admin", "loopback"),
  F("https://127.0.0.1/", "loopback"),
  F("HTTP://127.0.0.1/", "loopback"),
  F("http://127.255.255.254/", "loopback"),
  // unspecified
  F("http://0/", "unspecified"),
  F("http://0.0.0.0/", "unspecified"),
  F("http://0x0/", "unspecified"),
  // private (RFC 1918)
  F("http://10.0.0.1/", "private"),
  F("http://10.255.255.255/", "private"),
  F("http://012.0.0.1/", "private"),
  F("http://167772161/", "private"),
  F("http://172.16.0.1/", "private"),
  F("http://172.31.255.255/", "private"),
  F("http://0xac100001/", "private"),
  F("http://192.168.0.1/", "private"),
  F("http://192.168.1.1./", "private"),
  F("http://3232235777/", "private"),
  F("http://0xc0.0xa8.1.1/", "private"),
  // link-local and cloud metadata
  F("http://169.254.169.254/latest/meta-data/", "metadata"),
  F("http://2852039166/", "metadata"),
  F("http://0xa9fea9fe/", "metadata"),
  F("http://0251.0376.0251.0376/", "metadata"),
  F("http://169.254.170.2/v2/credentials", "metadata"),
  F("http://100.100.100.200/", "metadata"),
  F("http://192.0.0.192/", "metadata"),
  F("http://169.254.0.1/", "linkLocal"),
  // CGNAT, benchmark, documentation, multicast, broadcast, reserved
  F("http://100.64.0.1/", "carrierGradeNat"),
  F("http://198.18.0.1/", "reserved"),
  F("http://192.0.2.1/", "reserved"),
  F("http://198.51.100.7/", "reserved"),
  F("http://203.0.113.9/", "reserved"),
  F("http://224.0.0.1/", "multicast"),
  F("http://239.255.255.250/", "multicast"),
  F("http://255.255.255.255/", "broadcast"),
  F("http://240.0.0.1/", "reserved"),
  F("http://192.88.99.1/", "reserved"),
  // IPv6 loopback, unspecified, mapped, compatible, NAT64, 6to4, Teredo, local ranges
  F("http://[::1]/", "loopback"),
  F("http://[0:0:0:0:0:0:0:1]/", "loopback"),
  F("http://[::]/", "unspecified"),
  F("http://[::ffff:127.0.0.1]/", "loopback"),
  F("http://[::ffff:7f00:1]/", "loopback"),
  F("http://[0:0:0:0:0:ffff:127.0.0.1]/", "loopback"),
  F("http://[::ffff:169.254.169.254]/", "metadata"),
  F("http://[::ffff:10.0.0.1]/", "private"),
  F("http://[::127.0.0.1]/", "ipv4Compatible(loopback)"),
  F("http://[::7f00:1]/", "ipv4Compatible(loopback)"),
  F("http://[::10.0.0.1]/", "ipv4Compatible(private)"),
  F("http://[::ffff:0:7f00:1]/", "rfc6145(loopback)"),
  F("http://[64:ff9b::127.0.0.1]/", "rfc6052(loopback)"),
  F("http://[64:ff9b::a9fe:a9fe]/", "rfc6052(metadata)"),
  F("http://[64:ff9b:1::10.0.0.1]/", "rfc6052(private)"),
  F("http://[2002:7f00:1::]/", "6to4(loopback)"),
  F("http://[2002:a9fe:a9fe::1]/", "6to4(metadata)"),
  F("http://[2001::ffff:ffff:80ff:fffe]/", "teredo(loopback)"),
  F("http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "teredo(reserved)"),
  F("http://[fe80::1]/", "linkLocal"),
  F("http://[fc00::1]/", "uniqueLocal"),
  F("http://[fd00:ec2::254]/", "metadata"),
  F("http://[ff02::1]/", "multicast"),
  F("http://[2001:db8::1]/", "reserved"),
  F("http://[2001:2::1]/", "benchmarking"),
  F("http://[100::1]/", "discard"),
  F("http://[100:0:0:1::1]/", "dummyPrefix"),
  F("http://[5f00::1]/", "segmentRouting"),
  F("http://[3fff::1]/", "reserved"),
  F("http://[fec0::1]/", "deprecatedSiteLocal"),
  F("http://[4000::1]/", "reserved"),
  // localhost names: refused without a lookup
  F("http://localhost/", "localhost"),
  F("http://LOCALHOST/", "localhost"),
  F("http://LocalHost:8080/", "localhost"),
  F("http://localhost./", "localhost"),
  F("http://localhost../", "localhost"),
  F("http://foo.localhost/", "localhost"),
  F("http://a.b.localhost./", "localhost"),
  F("http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/", "localhost"),
  F("http://%6c%6f%63%61%6c%68%6f%73%74/", "localhost"),
  // authority tricks: the WHATWG parser decides the host, as undici will
  F("http://127.0.0.1\\@example.com/", "loopback"),
  F("http://127.0.0.1\\.example.com/", "loopback"),
  F("http:\\\\127.0.0.1\\", "loopback"),
  F("http:/127.0.0.1/", "loopback"),
  F("http:127.0.0.1", "loopback"),
  F("http:///127.0.0.1/", "loopback"),
  F("http://127.0.0.1#@example.com/", "loopback"),
  F("http://127.0.0.1?@example.com/", "loopback"),
  { url: "http://example.com@127.0.0.1/", tag: "CredentialsInUrl" },
  { url: "http://user:pass@example.com/", tag: "CredentialsInUrl" },
  { url: "http://[::1]:80@example.com/", tag: "CredentialsInUrl" },
  { url: "http://:@127.0.0.1/", tag: "ForbiddenDestination" },
  // zone ids and malformed hosts (the WHATWG parser refuses them)
  { url: "http://[fe80::1%25eth0]/", tag: "InvalidUrl" },
  { url: "http://[::ffff:127.0.0.1%25lo]/", tag: "InvalidUrl" },
  { url: "http://[fe80::1%eth0]/", tag: "InvalidUrl" },
  { url: "http://1.2.3.4.5/", tag: "InvalidUrl" },
  { url: "http://256.0.0.1/", tag: "InvalidUrl" },
  { url: "http://0x100000000/", tag: "InvalidUrl" },
  { url: "http://127.0.0.1%00.example.com/", tag: "InvalidUrl" },
  { url: "http://example.com%40127.0.0.1/", tag: "InvalidUrl" },
  { url: "http://", tag: "InvalidUrl" },
  { url: "http://[::1/", tag: "InvalidUrl" },
  { url: "", tag: "InvalidUrl" },
  { url: "127.0.0.1", tag: "InvalidUrl" },
  // other schemes
  { url: "file:///etc/passwd", tag: "UnsupportedScheme" },
  { url: "ftp://127.0.0.1/", tag: "UnsupportedScheme" },
  { url: "gopher://127.0.0.1:25/", tag: "UnsupportedScheme" },
  { url: "ws://127.0.0.1/", tag: "UnsupportedScheme" },
  { url: "javascript:alert(1)", tag: "UnsupportedScheme" },
  { url: "data:text/html,hi", tag: "UnsupportedScheme" }
]

/** Names whose DNS answers are hostile (resolved by the test resolver; never connected to). */
export const hostileDns: Readonly<Record<string, ReadonlyArray<string>>> = {
  "internal.test": ["10.0.0.1"],
  "meta.test": ["169.254.169.254"],
  "loop6.test": ["::1"],
  "mapped.test": ["::ffff:127.0.0.1"],
  "loop.test": ["127.0.0.1"],
  "cgnat.test": ["100.64.1.2"],
  "nat64.test": ["64:ff9b::7f00:1"],
  "ula.test": ["fd12:3456::1"]
}
