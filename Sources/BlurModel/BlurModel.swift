import BlurMetrics
import Foundation

#if arch(x86_64)
import BlurModelAVX2
#endif

/// The blur model (issue 64, models/blur/SPEC.md): a small convolutional network over the
/// analysis plane's most detailed luma tiles, whose sharpest tiles decide the photo's probability
/// of blur. Loaded once from the JSON the training script writes, its convolution weights repacked
/// for the loops (`ConvolutionLayer`); the convolutions run at AVX2 width where the CPU has it
/// (`KernelPath`, as the blur kernels).
package struct BlurModel: Sendable {
    /// The model's version, from the JSON.
    package let version: String
    /// The tile side T.
    package let tileSize: Int
    /// The smallest standard deviation a tile is divided by.
    package let stdFloor: Double
    /// How many tiles, by detail score, are evaluated.
    package let maxTiles: Int
    /// How many of the sharpest tiles the photo's probability averages.
    package let poolSharpest: Int
    /// The default probability threshold for rooms.
    package let thresholdRoom: Double
    /// The default probability threshold for inspiration photos.
    package let thresholdInspiration: Double
    /// Multiply-adds per tile (convolutions and dense layers), as SPEC's budget counts them.
    package let multiplyAddsPerTile: Int
    /// The network, first layer first.
    let layers: [BlurModelLayer]
    /// Floats in each activation buffer: the largest activation a tile makes.
    let scratchCount: Int

    /// The model compiled into the binary (`BlurModelWeights`).
    package static let shipped: BlurModel = {
        do {
            return try BlurModel(json: BlurModelWeights.json)
        } catch {
            fatalError("the shipped blur model does not load: \(error)")
        }
    }()

    /// Loads the model JSON, checking every layer against the tile size.
    package init(json: String) throws {
        let document: BlurModelDocument
        do {
            document = try JSONDecoder().decode(BlurModelDocument.self, from: Data(json.utf8))
        } catch let error as BlurModelError {
            throw error
        } catch {
            throw BlurModelError.unreadable(String(describing: error))
        }
        guard document.format == "photo-validator-blur-model" else { throw BlurModelError.invalid("format is \(document.format)") }
        guard document.tileSize >= 3, document.maxTiles > 0, document.poolSharpest > 0, document.stdFloor > 0 else {
            throw BlurModelError.invalid("tile_size, max_tiles, pool_sharpest and std_floor must be positive")
        }
        version = document.version
        tileSize = document.tileSize
        stdFloor = document.stdFloor
        maxTiles = document.maxTiles
        poolSharpest = document.poolSharpest
        thresholdRoom = document.thresholdRoom
        thresholdInspiration = document.thresholdInspiration
        // Shapes as a tile flows through: spatial side, true channels, stored channels; side 0 once averaged.
        var side = document.tileSize, channels = 1, stored = 1, largest = side * side, work = 0
        var loaded: [BlurModelLayer] = []
        for (index, layer) in document.layers.enumerated() {
            switch layer.type {
            case "conv3x3":
                guard side > 0, let inputs = layer.inputs, let outputs = layer.outputs, inputs == channels else {
                    throw BlurModelError.invalid("layer \(index): conv3x3 needs in = \(channels) channels on a plane")
                }
                let convolution = try ConvolutionLayer(
                    inputs: inputs, storedInputs: stored, outputs: outputs, stride: layer.stride ?? 1, relu: layer.relu ?? false,
                    weights: layer.weights ?? [], bias: layer.bias ?? []
                )
                guard convolution.outputSize(side) > 0 else { throw BlurModelError.invalid("layer \(index): conv3x3 on a \(side) px side") }
                work += convolution.multiplyAdds(width: side, height: side, inputs: inputs)
                side = convolution.outputSize(side)
                channels = outputs
                stored = convolution.storedOutputs
                largest = max(largest, side * side * stored)
                loaded.append(.convolution(convolution))
            case "global_average":
                guard side > 0 else { throw BlurModelError.invalid("layer \(index): global_average after the average") }
                side = 0
                loaded.append(.globalAverage)
            case "dense":
                guard side == 0, let inputs = layer.inputs, let outputs = layer.outputs, inputs == channels else {
                    throw BlurModelError.invalid("layer \(index): dense needs in = \(channels) after global_average")
                }
                let dense = try DenseLayer(inputs: inputs, outputs: outputs, relu: layer.relu ?? false, weights: layer.weights ?? [], bias: layer.bias ?? [])
                work += inputs * outputs
                channels = outputs
                stored = outputs
                largest = max(largest, outputs)
                loaded.append(.dense(dense))
            default:
                throw BlurModelError.invalid("layer \(index): unknown type \(layer.type)")
            }
        }
        guard side == 0, channels == 1 else { throw BlurModelError.invalid("the network must end in one value after global_average") }
        layers = loaded
        scratchCount = largest
        multiplyAddsPerTile = work
    }

    /// The model's estimate for `plane`, or nil when the plane is under one tile in a side.
    package func estimate(_ plane: LumaPlane, path: KernelPath = .best) -> BlurModelEstimate? {
        plane.pixels.withUnsafeBufferPointer { pixels in
            estimate(pixels: pixels.baseAddress!, width: plane.width, height: plane.height, path: path)
        }
    }

    /// The model's estimate for `width` x `height` packed samples at `pixels`, or nil when a side
    /// is under one tile: the `maxTiles` most detailed tiles evaluated, the `poolSharpest` lowest
    /// probabilities averaged.
    package func estimate(pixels: UnsafePointer<UInt8>, width: Int, height: Int, path: KernelPath = .best) -> BlurModelEstimate? {
        guard let grid = BlurTileGrid(width: width, height: height, size: tileSize) else { return nil }
        let scores = grid.detailScores(pixels: pixels, width: width, path: path)
        let chosen = BlurTileGrid.selected(scores: scores, limit: maxTiles)
        let scratch = BlurModelScratch(count: scratchCount)
        var tiles: [BlurTileEstimate] = []
        tiles.reserveCapacity(chosen.count)
        for index in chosen {
            let origin = grid.origin(of: index)
            let value = logit(tile: pixels + origin.y * width + origin.x, rowStride: width, scratch: scratch, path: path)
            tiles.append(BlurTileEstimate(x: origin.x, y: origin.y, detail: scores[index], logit: value, probability: Self.probability(logit: value)))
        }
        guard let pooled = BlurModelEstimate.pooled(tiles.map(\.probability), sharpest: poolSharpest) else { return nil }
        return BlurModelEstimate(probability: pooled, tileSize: tileSize, tiles: tiles)
    }

    /// The logit of each tile of `tileSize * tileSize` samples (row after row) in `tiles`.
    package func logits(tiles: [[UInt8]], path: KernelPath = .best) -> [Float] {
        let scratch = BlurModelScratch(count: scratchCount)
        return tiles.map { tile in
            precondition(tile.count == tileSize * tileSize, "a tile holds tile_size^2 samples")
            return tile.withUnsafeBufferPointer { logit(tile: $0.baseAddress!, rowStride: tileSize, scratch: scratch, path: path) }
        }
    }

    /// `1 / (1 + exp(-logit))`, in Double.
    package static func probability(logit: Float) -> Double {
        1 / (1 + exp(-Double(logit)))
    }

    /// The network's output for the tile whose top-left sample is at `tile`, rows `rowStride` apart.
    func logit(tile: UnsafePointer<UInt8>, rowStride: Int, scratch: borrowing BlurModelScratch, path: KernelPath) -> Float {
        normalise(tile: tile, rowStride: rowStride, into: scratch.first, table: scratch.table)
        var current = scratch.first, spare = scratch.second
        var side = tileSize, stored = 1
        for layer in layers {
            switch layer {
            case .convolution(let convolution):
                let outputSide = convolution.outputSize(side)
                convolution.packedWeights.withUnsafeBufferPointer { weights in
                    convolution.packedBias.withUnsafeBufferPointer { bias in
                        Self.convolve(
                            convolution, input: current, inputSide: side, output: spare, outputSide: outputSide,
                            weights: weights.baseAddress!, bias: bias.baseAddress!, path: path
                        )
                    }
                }
                side = outputSide
                stored = convolution.storedOutputs
            case .globalAverage:
                let positions = side * side
                for channel in 0..<stored {
                    var sum: Float = 0
                    for position in 0..<positions { sum += current[position * stored + channel] }
                    spare[channel] = sum / Float(positions)
                }
                side = 0
            case .dense(let dense):
                dense.apply(current, to: spare)
                stored = dense.outputs
            }
            swap(&current, &spare)
        }
        return current[0]
    }

    /// Writes the tile's `(v - mean) / max(std, stdFloor)` to `output`, row after row: the
    /// population mean and standard deviation of its samples in Double (from exact integer sums),
    /// used as Float, the subtraction and division in Float as the training's `normalise`; each of
    /// the 256 possible values once.
    private func normalise(tile: UnsafePointer<UInt8>, rowStride: Int, into output: UnsafeMutablePointer<Float>, table: UnsafeMutablePointer<Float>) {
        var sum = 0, sumOfSquares = 0
        for y in 0..<tileSize {
            let row = tile + y * rowStride
            var rowSum: UInt32 = 0, rowSquares: UInt32 = 0
            for x in 0..<tileSize {
                let value = UInt32(row[x])
                rowSum &+= value
                rowSquares &+= value &* value
            }
            sum += Int(rowSum)
            sumOfSquares += Int(rowSquares)
        }
        let count = tileSize * tileSize
        let mean = Double(sum) / Double(count)
        let variance = Double(count * sumOfSquares - sum * sum) / (Double(count) * Double(count))
        let meanFloat = Float(mean), scale = Float(max(variance.squareRoot(), stdFloor))
        for value in 0..<256 { table[value] = (Float(value) - meanFloat) / scale }
        for y in 0..<tileSize {
            let row = tile + y * rowStride
            let target = output + y * tileSize
            for x in 0..<tileSize { target[x] = table[Int(row[x])] }
        }
    }

    /// One convolution by the loops of `path`.
    private static func convolve(
        _ layer: ConvolutionLayer, input: UnsafePointer<Float>, inputSide: Int, output: UnsafeMutablePointer<Float>, outputSide: Int,
        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>, path: KernelPath
    ) {
        #if arch(x86_64)
        if path == .avx2 {
            ConvolutionKernelAVX2.convolve(
                input: input, inputWidth: inputSide, storedInputs: layer.storedInputs, output: output, outputWidth: outputSide,
                outputHeight: outputSide, storedOutputs: layer.storedOutputs, stride: layer.stride, relu: layer.relu, weights: weights, bias: bias
            )
            return
        }
        #endif
        ConvolutionKernel.convolve(
            input: input, inputWidth: inputSide, storedInputs: layer.storedInputs, output: output, outputWidth: outputSide,
            outputHeight: outputSide, storedOutputs: layer.storedOutputs, stride: layer.stride, relu: layer.relu, weights: weights, bias: bias
        )
    }
}
