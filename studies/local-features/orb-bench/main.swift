import Foundation
#if canImport(Glibc)
import Glibc
#endif

// Thread CPU time in ms: the machine is shared, so wall time includes other builds.
func cpuMs() -> Double { var ts = timespec(); clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) * 1e-6 }
import LumaAnalysis

// Usage: orb-bench <data dir>. Reads <dir>/pairs.tsv written by scripts/make_planes.py.
let dir = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/orb/data"

func loadPlane(_ name: String) -> LumaPlane {
    let dims = name.split(separator: "_").last!.dropLast(5).split(separator: "x")
    let w = Int(dims[0])!, h = Int(dims[1])!
    let data = FileManager.default.contents(atPath: dir + "/" + name)!
    return LumaPlane(width: w, height: h, pixels: [UInt8](data))
}

func median(_ f: () -> Void, runs: Int = 20) -> String {
    var t: [Double] = [], c: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<runs {
        let c0 = cpuMs()
        let d = clock.measure(f)
        c.append(cpuMs() - c0)
        t.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) * 1e-15)
    }
    t.sort(); c.sort()
    return String(format: "wall %.3f ms, thread-CPU %.3f ms", t[runs / 2], c[runs / 2])
}

var cache: [String: LocalFeatures] = [:]
@MainActor func features(_ name: String) -> LocalFeatures {
    if let f = cache[name] { return f }
    let f = LocalFeatures(of: loadPlane(name)); cache[name] = f; return f
}

let tsv = try! String(contentsOfFile: dir + "/pairs.tsv", encoding: .utf8)
print("kind      a                                 b                                   OpenCV L   F     n | Swift L   F     n(kp a/b)")
for line in tsv.split(separator: "\n") {
    let c = line.split(separator: "\t").map(String.init)
    let fa = features(c[1]), fb = features(c[2])
    let (l, f) = fa.agreement(with: fb)
    let n = f > 0 ? Int((Double(l) / f).rounded()) : 0
    print(c[0].padding(toLength: 9, withPad: " ", startingAt: 0), c[1].padding(toLength: 33, withPad: " ", startingAt: 0),
          c[2].padding(toLength: 35, withPad: " ", startingAt: 0),
          String(format: "%4d %5.3f %4d | %4d %5.3f %4d (%d/%d)", Int(c[3])!, Double(c[4])!, Int(c[5])!, l, f, n, fa.count, fb.count))
}

// Swift features against OpenCV's own keypoints and descriptors of the same plane.
for k in ["kitchen_1024x1365", "brushes_1301x1024"] {
    let name = k.split(separator: "_")[0]
    guard let kpText = try? String(contentsOfFile: "\(dir)/\(name).kp.txt", encoding: .utf8),
          let desc = FileManager.default.contents(atPath: "\(dir)/\(name).desc") else { continue }
    let pts = kpText.split(separator: "\n").map { $0.split(separator: " ").map { Double($0)! } }
    var bytes: [UInt8] = [0x4C, 0x46, 1, 6, UInt8(pts.count & 0xFF), UInt8(pts.count >> 8)]
    for p in pts { for v in p { let u = UInt16((v * 64).rounded()); bytes += [UInt8(u & 0xFF), UInt8(u >> 8)] } }
    bytes += [UInt8](desc)
    let cv = LocalFeatures(bytes: bytes)!
    let sw = features(k + ".gray")
    let (l1, f1) = sw.agreement(with: cv), (l2, f2) = cv.agreement(with: sw)
    print("cross \(name): Swift(\(sw.count)) vs OpenCV(\(cv.count)) L \(l1) F \(String(format: "%.3f", f1)); OpenCV vs Swift L \(l2) F \(String(format: "%.3f", f2))")
    // Keypoint overlap: Swift points within 1 px of an OpenCV point.
    let sb = sw.bytes
    var near = 0
    for i in 0..<sw.count {
        let o = 6 + 4 * i, bits = Double(1 << Int(sb[3]))
        let x = Double(UInt16(sb[o]) | UInt16(sb[o + 1]) << 8) / bits, y = Double(UInt16(sb[o + 2]) | UInt16(sb[o + 3]) << 8) / bits
        if pts.contains(where: { abs($0[0] - x) <= 1 && abs($0[1] - y) <= 1 }) { near += 1 }
    }
    print("  keypoints within 1 px of an OpenCV keypoint: \(near)/\(sw.count)")
}

for name in ["kitchen-rot90_1365x1024.gray", "attic-rot90_1024x1820.gray"] {
    let plane = loadPlane(name)
    let other = features(name.replacingOccurrences(of: "-rot90", with: "").replacingOccurrences(of: "1365x1024", with: "1024x1365").replacingOccurrences(of: "1024x1820", with: "1820x1024"))
    var f = LocalFeatures(of: plane)
    let tf = median { f = LocalFeatures(of: plane) }
    var r = (inliers: 0, share: 0.0)
    let ta = median { r = other.agreement(with: f) }
    print("timing \(name): LocalFeatures(of:) median \(tf); agreement median \(ta) (L \(r.inliers), \(f.count) kp, \(f.bytes.count) bytes)")
}
