import Testing

/// The desktop integration tests (other players, the sound server, portal and notification
/// services) start several linnet processes each; they run one at a time so that, beside the
/// rest of the suite, they do not crowd the timing-sensitive tests off a small machine.
@Suite(.serialized) enum DesktopIntegrationTests {}
