/// One step of the network, as loaded.
enum BlurModelLayer: Sendable {
    /// A 3x3 convolution over channel-last activations.
    case convolution(ConvolutionLayer)
    /// The mean over the spatial positions of each channel.
    case globalAverage
    /// A fully connected layer over the channel vector.
    case dense(DenseLayer)
}
