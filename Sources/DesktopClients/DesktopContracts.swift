/// What linnet asks of the desktop around it: how to treat other players, staying awake, and
/// notifications. The player (music) and the clock features (alarms, bells, Pomodoro) share one
/// instance of each, created by the daemon, so their requests combine instead of fighting.

/// Why linnet wants the audio: music follows the user's focus policy; alarms and bells always
/// stand out (they duck other players under `duck`, and pause them otherwise).
public enum FocusPurpose: String, Sendable, Codable, CaseIterable {
    case music
    case alarm
}

/// How linnet treats other MPRIS players while it plays (`--focus`).
public enum FocusPolicy: String, Sendable, Codable, CaseIterable {
    /// Play alongside other players.
    case mix
    /// Lower other playing players' Volume while linnet plays; restore it exactly afterwards.
    case duck
    /// Pause other players when linnet starts; give way when another starts.
    case pauseOthers = "pause-others"
}

/// Applies the focus policy to the other MPRIS players on the bus (never to linnet itself).
public protocol AudioFocusing: Sendable {
    /// The policy for music; changing it applies from the next acquire.
    var policy: FocusPolicy { get }
    /// Changes the policy.
    func setPolicy(_ policy: FocusPolicy)
    /// linnet started (or keeps) playing for `purpose`: pause or duck other players as the policy
    /// says. Calling it again for a purpose already held changes nothing.
    func acquire(_ purpose: FocusPurpose)
    /// linnet stopped playing for `purpose`: restore what `acquire` changed (resume what it
    /// paused, put volumes back exactly) once no purpose is held any more.
    func release(_ purpose: FocusPurpose)
}

/// Keeps the machine from suspending while linnet has a reason to stay awake.
public protocol SleepInhibiting: Sendable {
    /// Holds a suspend inhibitor for `reason` (a short key such as "playing" or "alarm");
    /// `explanation` is what the desktop shows the user. Holding a held reason changes nothing.
    func hold(_ reason: String, explanation: String)
    /// Drops `reason`; the inhibitor itself goes a few seconds after the last reason does, so
    /// pause/play flapping does not flap the inhibitor.
    func release(_ reason: String)
}

/// A button on a notification: `key` comes back when the user picks it.
public struct NotificationAction: Sendable, Equatable {
    /// The identifier sent back in ActionInvoked.
    public var key: String
    /// What the button says.
    public var label: String

    /// An action with identifier `key` labelled `label`.
    public init(key: String, label: String) {
        self.key = key
        self.label = label
    }
}

/// One bubble for org.freedesktop.Notifications.
public struct DesktopNotification: Sendable, Equatable {
    /// How insistent the bubble is (the spec's `urgency` hint).
    public enum Urgency: UInt8, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// The title line.
    public var summary: String
    /// The text below it.
    public var body: String
    /// A `file://` URI or an icon name; nil for linnet's own icon.
    public var icon: String?
    /// Buttons, shown only when the server advertises the `actions` capability.
    public var actions: [NotificationAction]
    /// The urgency hint.
    public var urgency: Urgency
    /// The spec's `category` hint, such as `x-linnet.alarm`.
    public var category: String?
    /// Milliseconds until it expires; nil for the server's default, 0 for never.
    public var expireTimeout: Int32?

    /// A notification saying `summary` and `body`.
    public init(summary: String, body: String = "", icon: String? = nil, actions: [NotificationAction] = [],
                urgency: Urgency = .normal, category: String? = nil, expireTimeout: Int32? = nil) {
        self.summary = summary
        self.body = body
        self.icon = icon
        self.actions = actions
        self.urgency = urgency
        self.category = category
        self.expireTimeout = expireTimeout
    }
}

/// Posts desktop notifications, one bubble per slot.
public protocol DesktopNotifying: Sendable {
    /// Shows `notification` in `slot` (e.g. "track", "alarm-3"), replacing the slot's previous
    /// bubble through `replaces_id`. `onAction` receives the key of an action the user picks.
    /// Fails soft (logs) when no notification server answers.
    func show(_ notification: DesktopNotification, in slot: String, onAction: (@Sendable (String) -> Void)?)
    /// Closes the slot's bubble, if any.
    func withdraw(_ slot: String)
}

/// The desktop services one daemon shares between the player and the clock features.
public struct DesktopServices: Sendable {
    /// Other players.
    public var focus: any AudioFocusing
    /// Staying awake.
    public var inhibitor: any SleepInhibiting
    /// Notifications.
    public var notifier: any DesktopNotifying

    /// Bundles the three services.
    public init(focus: any AudioFocusing, inhibitor: any SleepInhibiting, notifier: any DesktopNotifying) {
        self.focus = focus
        self.inhibitor = inhibitor
        self.notifier = notifier
    }
}
