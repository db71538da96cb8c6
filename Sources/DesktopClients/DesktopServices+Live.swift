public import DBus
public import Logging

extension DesktopServices {
    /// The real services on the session bus `connection`: the focus coordinator (already
    /// watching other players), the portal/logind suspend inhibitor and the notification client,
    /// all configured by `settings`. Every part fails soft when its counterpart is missing.
    /// `focusJournal` keeps what focus changed in other players across a crash.
    public static func live(
        connection: DBusConnection, settings: DesktopSettings, logger: Logger,
        focusJournal: (any FocusJournalStoring)? = nil
    ) -> DesktopServices {
        let services = unstarted(connection: connection, settings: settings, logger: logger, focusJournal: focusJournal)
        services.start()
        return services
    }

    /// The services of ``live(connection:settings:logger:focusJournal:)`` before they say
    /// anything on the bus; ``start()`` starts them. A service that takes its bus name first
    /// starts them after it, since their subscriptions are a dozen round trips to the bus.
    public static func unstarted(
        connection: DBusConnection, settings: DesktopSettings, logger: Logger,
        focusJournal: (any FocusJournalStoring)? = nil
    ) -> DesktopServices {
        let focus = AudioFocusCoordinator(connection: connection, settings: settings, logger: logger, journal: focusJournal)
        let inhibitor = SleepInhibitor(
            session: connection, systemBusAddress: settings.resolvedSystemBusAddress,
            releaseDelay: settings.inhibitorReleaseDelay, timeout: settings.callTimeout, logger: logger)
        let notifier = DesktopNotifier(connection: connection, timeout: settings.callTimeout, logger: logger, subscribing: false)
        return DesktopServices(focus: focus, inhibitor: inhibitor, notifier: notifier)
    }

    /// Starts following the bus: the focus coordinator subscribes and looks at the players on
    /// the bus (undoing first what a crashed linnet left changed), the notifier subscribes to
    /// its server's signals. Call it before anything plays: a focus request made earlier meets
    /// no other players.
    public func start() {
        if let focus = focus as? AudioFocusCoordinator { focus.start() }
        if let notifier = notifier as? DesktopNotifier { notifier.subscribe() }
    }

    /// Waits until the focus coordinator and the notifier have carried out everything asked of
    /// them so far — at shutdown, so that players linnet paused are resumed before it exits.
    /// Bounded: every call they make has a short timeout.
    public func settle() async {
        if let focus = focus as? AudioFocusCoordinator { await focus.settle() }
        if let notifier = notifier as? DesktopNotifier { await notifier.settle() }
    }

    /// Services that do nothing: for tests of other parts and for embedding without a desktop.
    public static var inert: DesktopServices {
        DesktopServices(focus: InertFocus(), inhibitor: InertInhibitor(), notifier: InertNotifier())
    }
}

/// Plays alongside everything and never touches another player.
private struct InertFocus: AudioFocusing {
    var policy: FocusPolicy { .mix }
    func setPolicy(_ policy: FocusPolicy) {}
    func acquire(_ purpose: FocusPurpose) {}
    func release(_ purpose: FocusPurpose) {}
}

/// Never keeps the machine awake.
private struct InertInhibitor: SleepInhibiting {
    func hold(_ reason: String, explanation: String) {}
    func release(_ reason: String) {}
}

/// Shows nothing.
private struct InertNotifier: DesktopNotifying {
    func show(_ notification: DesktopNotification, in slot: String, onAction: (@Sendable (String) -> Void)?) {}
    func withdraw(_ slot: String) {}
}
