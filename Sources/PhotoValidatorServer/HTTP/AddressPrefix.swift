#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The network a peer address belongs to, for fair admission when neither a trusted client header
/// nor a named token names the caller: its IPv4 /24 or its IPv6 /64 (an IPv4 address mapped into
/// IPv6 as the IPv4 one). A host gets a whole /64 from its provider and often a run of IPv4
/// addresses, so a new source address per request must not make each request a new caller with
/// a turn, a spare thread and a share of upload memory of its own (issue 63, finding 4).
enum AddressPrefix {
    /// `address`'s network as `a.b.c.0/24` or `x:x:x:x::/64`; anything that is not an IP address
    /// (a Unix socket's path) is returned as it is.
    static func of(_ address: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            return ipv4Network(withUnsafeBytes(of: &v4) { Array($0) })
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return address }
        var bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            return ipv4Network(Array(bytes[12..<16]))
        }
        for index in 8..<16 { bytes[index] = 0 }
        var network = in6_addr()
        withUnsafeMutableBytes(of: &network) { $0.copyBytes(from: bytes) }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(AF_INET6, &network, &text, socklen_t(text.count)) != nil else { return address }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "/64"
    }

    private static func ipv4Network(_ bytes: [UInt8]) -> String {
        "\(bytes[0]).\(bytes[1]).\(bytes[2]).0/24"
    }
}
