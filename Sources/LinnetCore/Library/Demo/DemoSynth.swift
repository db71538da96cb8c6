import FoundationEssentials
import Glibc

/// A note of a demo score: when, how long (in beats), which pitch, on which instrument.
struct DemoNote {
    enum Instrument {
        /// Bright strike with inharmonic-free partials ringing out.
        case bell
        /// Short plucked string.
        case pluck
        /// Soft sustained chord tone with a slow swell and a gentle chorus.
        case pad
        /// Round low tone.
        case bass
    }

    var start: Double
    var length: Double
    var midi: Int
    var instrument: Instrument
    var gain: Float
    /// -1 (left) to 1 (right).
    var pan: Float = 0
}

/// A short piece: tempo, length and notes.
struct DemoScore {
    var tempo: Double
    var beats: Double
    var notes: [DemoNote]

    /// Time after the last beat for bells and echoes to die away.
    static let tailSeconds = 1.5

    var secondsPerBeat: Double { 60 / tempo }
    var frameCount: Int { Int(((beats * secondsPerBeat) + Self.tailSeconds) * Double(RIFFWave.sampleRate)) }
}

/// Renders a ``DemoScore`` additively: each instrument is a few sine partials under an
/// envelope, mixed in stereo with a ping-pong echo, normalised and faded at the edges.
enum DemoSynth {
    private struct Voice {
        /// (frequency multiple, amplitude) pairs.
        var partials: [(Double, Float)]
        var attack: Double
        /// Exponential decay time constant of the fundamental; higher partials decay faster.
        var decay: Double
        var sustain: Float
        var release: Double
        /// Ring time after the note's written length ends.
        var ring: Double
        var detune: Double = 0
    }

    private static func voice(_ instrument: DemoNote.Instrument) -> Voice {
        switch instrument {
        case .bell: Voice(partials: [(1, 1), (2, 0.35), (3, 0.12), (4.2, 0.05)], attack: 0.004, decay: 0.9, sustain: 0, release: 0, ring: 1.4)
        case .pluck: Voice(partials: [(1, 1), (2, 0.45), (3, 0.2), (4, 0.08)], attack: 0.003, decay: 0.35, sustain: 0, release: 0, ring: 0.6)
        case .pad: Voice(partials: [(1, 1), (2, 0.25), (3, 0.06)], attack: 0.45, decay: 1e9, sustain: 1, release: 0.9, ring: 0.9, detune: 0.003)
        case .bass: Voice(partials: [(1, 1), (2, 0.3)], attack: 0.01, decay: 0.8, sustain: 0.45, release: 0.15, ring: 0.15)
        }
    }

    /// Interleaved stereo 16-bit samples of `score`.
    static func render(_ score: DemoScore) -> [Int16] {
        let rate = Double(RIFFWave.sampleRate)
        let frames = score.frameCount
        var left = [Float](repeating: 0, count: frames), right = [Float](repeating: 0, count: frames)
        for note in score.notes {
            let voice = voice(note.instrument)
            let frequency = 440 * pow(2, Double(note.midi - 69) / 12)
            let start = Int(note.start * score.secondsPerBeat * rate)
            let held = note.length * score.secondsPerBeat
            let count = min(frames - start, Int((held + voice.ring) * rate))
            guard count > 0 else { continue }
            var tone = [Float](repeating: 0, count: count)
            tone.withUnsafeMutableBufferPointer { buffer in
                for (multiple, weight) in voice.partials {
                    let decayTime = voice.sustain == 0 ? voice.decay / multiple : nil
                    if voice.detune > 0 {
                        for detune in [1 - voice.detune, 1 + voice.detune] {
                            addPartial(to: buffer, frequency: frequency * multiple * detune, weight: weight / 2, decayTime: decayTime)
                        }
                    } else {
                        addPartial(to: buffer, frequency: frequency * multiple, weight: weight, decayTime: decayTime)
                    }
                }
                applyEnvelope(to: buffer, held: held, voice: voice)
            }
            // Equal-power panning keeps loudness constant across the stereo field.
            let angle = Double(note.pan + 1) * Double.pi / 4
            let leftGain = Float(cos(angle)) * note.gain, rightGain = Float(sin(angle)) * note.gain
            left.withUnsafeMutableBufferPointer { left in
                right.withUnsafeMutableBufferPointer { right in
                    for index in 0..<count {
                        left[start + index] += tone[index] * leftGain
                        right[start + index] += tone[index] * rightGain
                    }
                }
            }
        }
        echo(&left, &right, delay: Int(score.secondsPerBeat * 0.75 * rate))
        return finish(left, right)
    }

    /// Adds a sine of `frequency` decaying with `decayTime` (nil: steady). A rotating phasor
    /// and a per-sample decay factor stand in for sin() and exp() per sample, which keeps the
    /// synthesis quick even in debug builds.
    private static func addPartial(
        to buffer: UnsafeMutableBufferPointer<Float>, frequency: Double, weight: Float, decayTime: Double?
    ) {
        let rate = Double(RIFFWave.sampleRate)
        guard frequency < rate / 2 else { return }
        let step = 2 * Double.pi * frequency / rate
        let cosStep = cos(step), sinStep = sin(step)
        let factor = decayTime.map { exp(-1 / ($0 * rate)) } ?? 1
        var real = 1.0, imaginary = 0.0
        var amplitude = Double(weight)
        for index in 0..<buffer.count {
            buffer[index] += Float(imaginary * amplitude)
            let rotated = real * cosStep - imaginary * sinStep
            imaginary = real * sinStep + imaginary * cosStep
            real = rotated
            amplitude *= factor
            if amplitude < 1e-5 { return }
        }
    }

    /// Attack ramp, decay towards the sustain level, linear release after the held time, and a
    /// last short taper so a note cut off by its ring time never clicks.
    private static func applyEnvelope(to buffer: UnsafeMutableBufferPointer<Float>, held: Double, voice: Voice) {
        let rate = Double(RIFFWave.sampleRate)
        let attackFrames = max(1, Int(voice.attack * rate))
        let heldFrames = Int(held * rate)
        let releaseFrames = max(1, Int(voice.release * rate))
        let taper = max(1, min(buffer.count, RIFFWave.sampleRate / 20))
        let sustain = Double(voice.sustain)
        let decayFactor = sustain > 0 ? exp(-1 / (voice.decay * rate)) : 1
        var excess = 1.0
        for index in 0..<buffer.count {
            var gain = index < attackFrames ? Double(index) / Double(attackFrames) : 1
            if sustain > 0 {
                gain *= sustain + (1 - sustain) * excess
                excess *= decayFactor
                if index > heldFrames { gain *= max(0, 1 - Double(index - heldFrames) / Double(releaseFrames)) }
            }
            let remaining = buffer.count - index
            if remaining < taper { gain *= Double(remaining) / Double(taper) }
            buffer[index] *= Float(gain)
        }
    }

    /// A ping-pong echo: each side hears the other side's signal a dotted eighth later, fading.
    private static func echo(_ left: inout [Float], _ right: inout [Float], delay: Int) {
        guard delay > 0, delay < left.count else { return }
        left.withUnsafeMutableBufferPointer { left in
            right.withUnsafeMutableBufferPointer { right in
                for index in delay..<left.count {
                    left[index] += 0.25 * right[index - delay]
                    right[index] += 0.25 * left[index - delay]
                }
            }
        }
    }

    /// Peak-normalised to about -3 dBFS, with a short fade-in and a fade-out over the tail.
    private static func finish(_ left: [Float], _ right: [Float]) -> [Int16] {
        var peak: Float = 0
        for index in 0..<left.count { peak = max(peak, abs(left[index]), abs(right[index])) }
        let scale = peak > 0 ? 0.7 / peak : 0
        let fadeIn = RIFFWave.sampleRate / 100, fadeOut = RIFFWave.sampleRate / 2
        var samples = [Int16](repeating: 0, count: left.count * 2)
        samples.withUnsafeMutableBufferPointer { samples in
            for index in 0..<left.count {
                var gain = scale
                if index < fadeIn { gain *= Float(index) / Float(fadeIn) }
                let remaining = left.count - index
                if remaining < fadeOut { gain *= Float(remaining) / Float(fadeOut) }
                samples[2 * index] = Int16(max(-1, min(1, left[index] * gain)) * 32767)
                samples[2 * index + 1] = Int16(max(-1, min(1, right[index] * gain)) * 32767)
            }
        }
        return samples
    }
}
