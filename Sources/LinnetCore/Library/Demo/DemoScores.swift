/// The four demo pieces. Written as data: chord progressions and melodies in MIDI note numbers
/// (60 is middle C), lengths in beats.
enum DemoScores {
    static let firstLight = DemoScore(tempo: 84, beats: 16, notes: arpeggiated(
        chords: [[60, 64, 67], [57, 60, 64], [53, 57, 60], [55, 59, 62]], beatsPerChord: 4))

    static let linnetsSong: DemoScore = {
        var notes = melody(
            [(79, 0.5), (83, 0.5), (86, 0.25), (88, 0.25), (86, 0.5), (83, 1), (81, 0.5), (79, 0.5),
             (81, 1), (76, 0.5), (79, 0.5), (83, 0.5), (81, 0.5), (79, 1),
             (86, 0.5), (88, 0.5), (91, 0.25), (88, 0.25), (86, 0.5), (83, 1), (81, 0.5), (83, 0.5),
             (79, 2)],
            instrument: .pluck, gain: 0.5, pan: 0.2)
        let chords: [[Int]] = [[55, 59, 62], [52, 55, 59], [48, 52, 55], [50, 54, 57]]
        for (bar, chord) in chords.enumerated() {
            let start = Double(bar * 4)
            notes.append(DemoNote(start: start, length: 4, midi: chord[0] - 12, instrument: .bass, gain: 0.45))
            for offbeat in stride(from: 0.5, to: 4, by: 1) {
                for midi in chord {
                    notes.append(DemoNote(start: start + offbeat, length: 0.25, midi: midi, instrument: .pluck, gain: 0.12, pan: -0.4))
                }
            }
        }
        return DemoScore(tempo: 108, beats: 16, notes: notes)
    }()

    static let eveningTide: DemoScore = {
        let chords: [[Int]] = [[53, 57, 60, 64], [52, 55, 59, 62], [50, 53, 57, 60], [48, 52, 55, 59]]
        var notes: [DemoNote] = []
        for (bar, chord) in chords.enumerated() {
            for (voice, midi) in chord.enumerated() {
                notes.append(DemoNote(
                    start: Double(bar * 4), length: 4, midi: midi, instrument: .pad, gain: 0.16,
                    pan: Float(voice) * 0.4 - 0.6))
            }
            notes.append(DemoNote(start: Double(bar * 4), length: 4, midi: chord[0] - 12, instrument: .bass, gain: 0.3))
        }
        notes += melody(
            [(72, 1.5), (69, 0.5), (71, 2), (67, 1.5), (69, 0.5), (64, 2), (65, 1), (69, 1), (72, 2),
             (71, 1), (67, 1), (64, 2)],
            instrument: .bell, gain: 0.3, pan: 0.3)
        return DemoScore(tempo: 72, beats: 16, notes: notes)
    }()

    static let littleWaltz: DemoScore = {
        var notes = melody(
            [(76, 1), (79, 1), (84, 1), (83, 2), (79, 1), (81, 1), (77, 1), (81, 1), (79, 3),
             (76, 1), (72, 1), (76, 1), (77, 2), (74, 1), (71, 1), (74, 1), (79, 1), (72, 3)],
            instrument: .bell, gain: 0.35, pan: 0.15)
        let bars: [[Int]] = [
            [60, 64, 67], [59, 62, 65], [57, 60, 65], [60, 64, 67],
            [57, 60, 64], [57, 62, 65], [59, 62, 65], [60, 64, 67],
        ]
        for (bar, chord) in bars.enumerated() {
            let start = Double(bar * 3)
            let root = chord == [57, 60, 65] ? 53 : chord == [59, 62, 65] ? 55 : chord == [57, 62, 65] ? 50 : chord[0]
            notes.append(DemoNote(start: start, length: 1, midi: root - 12, instrument: .bass, gain: 0.45))
            for beat in 1...2 {
                for midi in chord {
                    notes.append(DemoNote(start: start + Double(beat), length: 0.5, midi: midi, instrument: .pluck, gain: 0.1, pan: -0.35))
                }
            }
        }
        return DemoScore(tempo: 132, beats: 24, notes: notes)
    }()

    /// A pad and bass per chord, with bells rising and falling through the chord in eighths.
    private static func arpeggiated(chords: [[Int]], beatsPerChord: Double) -> [DemoNote] {
        var notes: [DemoNote] = []
        for (bar, chord) in chords.enumerated() {
            let start = Double(bar) * beatsPerChord
            for (voice, midi) in chord.enumerated() {
                notes.append(DemoNote(start: start, length: beatsPerChord, midi: midi, instrument: .pad, gain: 0.14, pan: Float(voice - 1) * 0.5))
            }
            notes.append(DemoNote(start: start, length: 2, midi: chord[0] - 12, instrument: .bass, gain: 0.35))
            notes.append(DemoNote(start: start + 2, length: 2, midi: chord[0] - 12, instrument: .bass, gain: 0.3))
            let high = chord.map { $0 + 12 }
            let pattern = [high[0], high[1], high[2], high[0] + 12, high[2], high[1], high[2], high[1]]
            for (step, midi) in pattern.enumerated() {
                notes.append(DemoNote(
                    start: start + Double(step) * 0.5, length: 0.5, midi: midi, instrument: .bell, gain: 0.22,
                    pan: step % 2 == 0 ? -0.3 : 0.3))
            }
        }
        return notes
    }

    /// Notes played one after another from beat 0.
    private static func melody(
        _ tune: [(midi: Int, beats: Double)], instrument: DemoNote.Instrument, gain: Float, pan: Float
    ) -> [DemoNote] {
        var time = 0.0
        return tune.map { step in
            defer { time += step.beats }
            return DemoNote(start: time, length: step.beats, midi: step.midi, instrument: instrument, gain: gain, pan: pan)
        }
    }
}
