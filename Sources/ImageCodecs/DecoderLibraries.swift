import CLibAVCodec
import CLibJPEG

/// The versions of the C decoders this process runs, for `--version --verbose` and operators
/// who need to know which decoder judged a photo.
public enum DecoderLibraries {
    /// Library name and version, in the order photos meet them.
    public static var versions: [(name: String, version: String)] {
        let jpeg = pv_jpeg_library_version()
        let avcodec = pv_hevc_library_version()
        return [
            ("libvips", VipsRuntime.version),
            ("libjpeg-turbo", jpeg == 0 ? "unknown" : "\(jpeg / 1_000_000).\(jpeg / 1000 % 1000).\(jpeg % 1000)"),
            ("libwebp", LibWebPDecoder.version),
            ("libavcodec", "\(avcodec >> 16).\(avcodec >> 8 & 0xFF).\(avcodec & 0xFF) (FFmpeg \(String(cString: pv_hevc_ffmpeg_release())))"),
        ]
    }
}
