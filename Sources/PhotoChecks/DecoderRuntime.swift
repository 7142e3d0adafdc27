import Foundation
import ImageCodecs
import PhotoFormat

/// The C decoders of this process as the commands see them, without importing them: their
/// versions, whether they were ever set up, and the one trusted rendering (`tune`'s chart).
public enum DecoderRuntime {
    /// The libvips version, such as `8.14.1` (read from the library; nothing is set up).
    public static var libvipsVersion: String { VipsRuntime.version }

    /// Library name and version of each C decoder, in the order photos meet them.
    public static var libraryVersions: [(name: String, version: String)] { DecoderLibraries.versions }

    /// True once this process has set up libvips. Every way into the C decoders (an
    /// `InProcessChecks`, a preview, an SVG rendering) sets it up first, so false means this
    /// process has run no libvips, libjpeg or FFmpeg code on a photo.
    public static var isStarted: Bool { VipsRuntime.isStarted }

    /// The PNG bytes of `svg`, an SVG document photo-validator wrote itself (report charts);
    /// starts libvips in this process.
    ///
    /// - Throws: `DecodeFailure` when libvips cannot render it.
    public static func png(fromSVG svg: String) throws(DecodeFailure) -> Data {
        try SVGRasterizer.png(fromSVG: svg)
    }
}
