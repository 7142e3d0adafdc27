import PhotoFormat
import PhotoStructure
import PhotoValidation
import Testing

/// Issue 53, finding 10: the default decode memory budget follows the pixel limit, so a photo the
/// limit admits is never refused for memory from its header alone.
@Suite("The default decode memory budget admits every picture the pixel limit admits")
struct DefaultBudgetTests {
    @Test("every format's least need at every shape up to the pixel limit fits the default budget",
          arguments: [ImageFormat.jpeg, .png, .webp, .heif])
    func leastNeedFits(format: ImageFormat) {
        let settings = ValidationSettings()
        // A WebP side is at most 16383 px; the others' 65535.
        let largestSide = format == .webp ? 16383 : 65535
        var checked = 0
        for width in [1, 16, 400, 1000, 2156, 6000, 6103, 8000, 10000, 11158, 16383, 30000, 65535] where width <= largestSide {
            let height = min(largestSide, settings.pixelLimit / width)
            for size in [DeclaredSize(format: format, width: width, height: height), DeclaredSize(format: format, width: height, height: width)] {
                let need = DecodeMemory.least(size, scale: settings.analysisScale)
                #expect(need <= settings.decodeMemoryBudget, "\(size.width)x\(size.height) \(format): \(need >> 20) MiB of \(settings.decodeMemoryBudget >> 20)")
                checked += 1
            }
        }
        #expect(checked >= 20)
    }

    @Test("the default is 9 bytes a pixel of the limit in whole MiB, never under 128 MiB, and follows a lower or higher limit")
    func followsTheLimit() {
        #expect(ValidationSettings().decodeMemoryBudget == ValidationSettings.defaultDecodeMemoryBudget(pixelLimit: DeclaredSize.defaultPixelLimit))
        #expect(ValidationSettings.defaultDecodeMemoryBudget(pixelLimit: 100_000_000) == 859 << 20)
        #expect(ValidationSettings.defaultDecodeMemoryBudget(pixelLimit: 12_000_000) == 128 << 20)
        #expect(ValidationSettings.defaultDecodeMemoryBudget(pixelLimit: 200_000_000) == 1717 << 20)
        // 48 MP, the 8000x6000 WebP refused at 128 MiB before, needs 144 MB for libwebp's RGB canvas alone.
        #expect(DecodeMemory.least(DeclaredSize(format: .webp, width: 8000, height: 6000), scale: ValidationSettings().analysisScale) > 128 << 20)
    }
}
