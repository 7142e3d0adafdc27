/// What the header of a photo says, read without decoding any pixels.
public struct ImageHeader: Sendable, Equatable {
    /// The container format.
    public let format: ImageFormat
    /// Width of the stored pixel grid, before EXIF orientation.
    public let storedWidth: Int
    /// Height of the stored pixel grid, before EXIF orientation.
    public let storedHeight: Int
    /// The EXIF orientation tag, 1 to 8 (1 when absent or invalid).
    public let orientation: Int

    /// Creates a header description.
    public init(format: ImageFormat, storedWidth: Int, storedHeight: Int, orientation: Int) {
        self.format = format
        self.storedWidth = storedWidth
        self.storedHeight = storedHeight
        self.orientation = (1...8).contains(orientation) ? orientation : 1
    }

    /// True when the orientation turns the image by 90 degrees, swapping width and height.
    public var isTransposed: Bool { orientation >= 5 }
    /// Width as the photo is displayed, after EXIF orientation.
    public var width: Int { isTransposed ? storedHeight : storedWidth }
    /// Height as the photo is displayed, after EXIF orientation.
    public var height: Int { isTransposed ? storedWidth : storedHeight }
    /// The shorter side in pixels (independent of orientation).
    public var shortestSide: Int { min(storedWidth, storedHeight) }
    /// The number of pixels the header declares.
    public var pixelCount: Int { storedWidth * storedHeight }
}
