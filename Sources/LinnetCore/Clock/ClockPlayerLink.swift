public import PlayerCore

/// What the clock features need of the player: a way to feed it their inputs (an alarm ringing,
/// a fade level, a Pomodoro phase) and to hear what it asks of them (Stop dismisses an alarm).
/// ``PlayerController`` is the real one; a test can record the inputs instead, with no bus.
public protocol ClockPlayerLink: Sendable {
    /// Feeds `input` to the player, in order with everything else it receives.
    func send(_ input: PlayerInput)
    /// Sets the one handler for the player's requests to the clock.
    func onClockRequest(_ handler: @escaping @Sendable (ClockRequest) -> Void)
}

extension PlayerController: ClockPlayerLink {}
