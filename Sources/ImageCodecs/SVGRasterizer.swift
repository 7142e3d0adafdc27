import CVips
import Foundation
import PhotoFormat

/// Renders SVG documents that photo-validator writes itself (report charts) to PNG with libvips.
///
/// The SVG loader stays blocked for uploads: this unblocks it only for the operation that renders
/// trusted, locally generated text, in processes that ask for it (the `tune` command).
public enum SVGRasterizer {
    /// The PNG bytes of `svg`.
    ///
    /// - Throws: `DecodeFailure` when libvips cannot render it.
    public static func png(fromSVG svg: String) throws(DecodeFailure) -> Data {
        try VipsRuntime.start()
        vips_operation_block_set("VipsForeignLoadSvg", 0)
        let bytes = Array(svg.utf8)
        var output: UnsafeMutableRawPointer?
        var length = 0
        let ticket = VipsErrorAttribution.begin()
        defer { VipsErrorAttribution.end(ticket) }
        let status = bytes.withUnsafeBytes { pv_svg_to_png($0.baseAddress, $0.count, &output, &length) }
        guard status == 0, let output else {
            throw DecodeFailure(.libraryFailure, "libvips could not render the SVG chart: \(VipsErrorAttribution.message(for: ticket))")
        }
        defer { g_free(output) }
        return Data(bytes: output, count: length)
    }
}
