/// The one check for identifiers that are safe in a URL path, an object key, a log line and a
/// response header: ASCII letters, digits and `. _ : -`.
public enum PlainIdentifier {
    /// True when `value` is 1 to `maximumLength` bytes of `A-Z a-z 0-9 . _ : -`.
    public static func isValid(_ value: String, maximumLength: Int) -> Bool {
        (1...maximumLength).contains(value.utf8.count) && value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"), UInt8(ascii: "-"): true
            default: false
            }
        }
    }
}
