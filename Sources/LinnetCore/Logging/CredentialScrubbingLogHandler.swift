import LibraryFormats
public import Logging

/// A log handler that removes URI credentials (`http://user:password@host/…` → `http://host/…`)
/// from every message and metadata value before `Upstream` writes it: whichever component
/// logs a URI, no password reaches the journal.
///
/// Not generic over its upstream: a generic handler's type is instantiated at run time when
/// the first logger is made, which scans every protocol conformance in the process for the
/// upstream's `LogHandler` conformance, on the way to the bus name.
public struct CredentialScrubbingLogHandler: LogHandler {
    /// The handler scrubbed lines are written through.
    public var upstream: any LogHandler

    /// Scrubs lines for `upstream`.
    public init(_ upstream: any LogHandler) {
        self.upstream = upstream
    }

    public var logLevel: Logger.Level {
        get { upstream.logLevel }
        set { upstream.logLevel = newValue }
    }

    public var metadata: Logger.Metadata {
        get { upstream.metadata }
        set { upstream.metadata = newValue }
    }

    public var metadataProvider: Logger.MetadataProvider? {
        get { upstream.metadataProvider }
        set { upstream.metadataProvider = newValue }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { upstream[metadataKey: key] }
        set { upstream[metadataKey: key] = newValue }
    }

    public func log(event: LogEvent) {
        var scrubbed = event
        scrubbed.message = "\(URICredentials.scrubbed(event.message.description))"
        scrubbed.metadata = event.metadata?.mapValues { value in
            let text = value.description
            let clean = URICredentials.scrubbed(text)
            return clean == text ? value : .string(clean)
        }
        upstream.log(event: scrubbed)
    }
}
