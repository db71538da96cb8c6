/// State whose valid parts can be salvaged from a damaged file (cut short, one bad entry, too
/// large to load whole). ``StateStore`` still keeps such a file aside untouched; what this
/// salvages is what linnet carries on with instead of starting empty.
public protocol RecoverableState {
    /// What can be salvaged from `bytes`, the start of a damaged state file, and a phrase for
    /// the log saying how much ("3 alarms"); nil when nothing can.
    static func salvage(from bytes: [UInt8]) -> (value: Self, summary: String)?
}
