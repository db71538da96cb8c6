import LibraryFormats
/// The alarm tone and the Pomodoro bell linnet synthesises itself (with the demo playlist's
/// synthesiser), written once as WAV files into a cache directory.
public struct BuiltInSounds: Sendable {
    /// The directory holding the files, e.g. `~/.cache/linnet/sounds`.
    public let directory: String

    /// Sounds stored in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The alarm tone's `file://` URI: a rising three-note bell figure, about 2.5 s, meant to
    /// loop.
    public func alarmURI() throws(FileWriteError) -> String {
        try prepare("alarm.wav", title: "Alarm", score: DemoScore(tempo: 150, beats: 4, notes: [
            DemoNote(start: 0, length: 0.5, midi: 76, instrument: .bell, gain: 0.8),
            DemoNote(start: 0.5, length: 0.5, midi: 79, instrument: .bell, gain: 0.8),
            DemoNote(start: 1, length: 1, midi: 84, instrument: .bell, gain: 0.9),
            DemoNote(start: 1, length: 1, midi: 72, instrument: .bell, gain: 0.5),
        ]))
    }

    /// The Pomodoro bell's `file://` URI: one struck chord, about 2 s.
    public func bellURI() throws(FileWriteError) -> String {
        try prepare("bell.wav", title: "Bell", score: DemoScore(tempo: 120, beats: 1, notes: [
            DemoNote(start: 0, length: 1, midi: 81, instrument: .bell, gain: 0.8),
            DemoNote(start: 0, length: 1, midi: 88, instrument: .bell, gain: 0.4),
        ]))
    }

    private func prepare(_ name: String, title: String, score: DemoScore) throws(FileWriteError) -> String {
        let path = directory + "/" + name
        let tags = [RIFFWave.Tag(id: "INAM", value: title), RIFFWave.Tag(id: "ISFT", value: "linnet")]
        let size = RIFFWave.header(frameCount: score.frameCount, tags: tags).count + score.frameCount * RIFFWave.bytesPerFrame
        if (try? BoundedFileReader.read(path, limit: size + 1).count) != size {
            try AtomicFile.write(RIFFWave.file(interleaved: DemoSynth.render(score), tags: tags), to: path, fileMode: 0o600)
        }
        return FileURI.uri(forPath: path)
    }
}
