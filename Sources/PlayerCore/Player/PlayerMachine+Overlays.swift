/// Audio focus and the clock features: other players asking linnet to give way, and the alarm,
/// Pomodoro and sleep timer taking the transport for a while.
extension PlayerMachine {
    mutating func focusRequested(_ request: FocusRequest) {
        guard !isShutDown else { return }
        switch request {
        case .yield:
            guard transport == .playing else { return }
            pausedForFocus = true
            emit(.log(.info, "paused: another player started"))
            // As the user's Pause: a running Pomodoro pauses with the music.
            route(.pause)
        case .resume:
            guard pausedForFocus, transport == .paused else { return }
            emit(.log(.info, "resuming: the other player stopped"))
            route(.play)
        }
    }

    mutating func clock(_ input: ClockInput) {
        switch input {
        case .alarmStarted(let display):
            if transport == .playing {
                pauseMusic()
                musicAwaitsAlarmEnd = true
            }
            alarm = display
            publish()
        case .alarmEnded:
            guard alarm != nil else { return }
            alarm = nil
            publish()
            if musicAwaitsAlarmEnd {
                musicAwaitsAlarmEnd = false
                playMusic()
            }
        case .pomodoro(let display):
            guard display != pomodoro else { return }
            pomodoro = display
            publish()
        case .playMusic:
            if alarm != nil { musicAwaitsAlarmEnd = true } else { playMusic() }
        case .pauseMusic:
            // Paused on purpose: it stays paused after an alarm.
            musicAwaitsAlarmEnd = false
            pauseMusic()
        case .fade(let level):
            fadeLevel = max(0, min(1, level))
            emit(.engine(.setVolume(engineLevel)))
        case .replaceQueue(let tracks):
            replaceQueue(with: tracks, playlist: nil)
        }
    }
}
