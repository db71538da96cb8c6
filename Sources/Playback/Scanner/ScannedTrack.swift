/// What the ``MetadataScanner`` learnt about one URI without playing it.
public struct ScannedTrack: Sendable, Hashable {
    /// The URI that was scanned.
    public var uri: String
    /// The length in microseconds, when the container or stream declares one.
    public var durationMicroseconds: Int64?
    /// The typed tags; ``TrackMetadata/artURI`` is set for embedded or folder art.
    public var metadata: TrackMetadata

    /// A scan result for `uri`.
    public init(uri: String, durationMicroseconds: Int64?, metadata: TrackMetadata) {
        self.uri = uri
        self.durationMicroseconds = durationMicroseconds
        self.metadata = metadata
    }
}
