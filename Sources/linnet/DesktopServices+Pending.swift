import LinnetCore

// TEMPORARY until the `desktop` branch (real notifier, inhibitor, focus coordinator) is merged:
// then the daemon uses DesktopServices.live(connection:settings:logger:) and this file goes.
extension DesktopServices {
    static var pending: DesktopServices {
        DesktopServices(focus: PendingFocus(), inhibitor: PendingInhibitor(), notifier: PendingNotifier())
    }
}

private struct PendingFocus: AudioFocusing {
    var policy: FocusPolicy { .mix }
    func setPolicy(_ policy: FocusPolicy) {}
    func acquire(_ purpose: FocusPurpose) {}
    func release(_ purpose: FocusPurpose) {}
}

private struct PendingInhibitor: SleepInhibiting {
    func hold(_ reason: String, explanation: String) {}
    func release(_ reason: String) {}
}

private struct PendingNotifier: DesktopNotifying {
    func show(_ notification: DesktopNotification, in slot: String, onAction: (@Sendable (String) -> Void)?) {}
    func withdraw(_ slot: String) {}
}
