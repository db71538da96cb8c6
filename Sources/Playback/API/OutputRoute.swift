/// Where the sound server plays the engine's stream: a sink (a device, as PulseAudio and
/// PipeWire's pulse server name them) and, on devices that have several outputs, its active port.
///
/// Built from what the server reports for the sink (`pa_sink_info`): the active port with its
/// type and jack availability, and the `device.form_factor` and `device.bus` properties that
/// Bluetooth and USB devices carry.
public struct OutputRoute: Sendable, Hashable {
    /// The server's index for the sink: unique while the server runs, unlike the name, which a
    /// device that comes back reuses.
    public var sinkIndex: UInt32
    /// The sink's name, e.g. `alsa_output.pci-0000_00_1f.3.analog-stereo`.
    public var sinkName: String
    /// The output within the sink that sound goes to, when the sink has ports.
    public var activePort: Port?
    /// `device.form_factor`: `headphone`, `headset`, `handset`, `speaker`, `internal`… when set.
    public var formFactor: String?
    /// `device.bus`: `bluetooth`, `usb`, `pci`… when set.
    public var bus: String?

    /// A route to the sink `sinkName` (index `sinkIndex`).
    public init(sinkIndex: UInt32, sinkName: String, activePort: Port? = nil, formFactor: String? = nil, bus: String? = nil) {
        self.sinkIndex = sinkIndex
        self.sinkName = sinkName
        self.activePort = activePort
        self.formFactor = formFactor
        self.bus = bus
    }

    /// One output of a sink, e.g. a laptop's speakers or its headphone jack.
    public struct Port: Sendable, Hashable {
        /// The port's name, e.g. `analog-output-headphones`.
        public var name: String
        /// What kind of output it is, as the server classifies it.
        public var kind: Kind
        /// Whether something is plugged into it, when the hardware can tell.
        public var availability: Availability

        /// A port named `name`.
        public init(name: String, kind: Kind, availability: Availability) {
            self.name = name
            self.kind = kind
            self.availability = availability
        }

        /// The port type (`pa_device_port_type`, PulseAudio 14 and later), reduced to what
        /// matters for listening privately.
        public enum Kind: Sendable, Hashable {
            /// Headphones (a 3.5 mm jack, a USB or Bluetooth headphone output).
            case headphones
            /// A headset: headphones with a microphone.
            case headset
            /// A phone handset or earpiece, held to the ear.
            case handset
            /// Loudspeakers.
            case speaker
            /// Anything else (line out, HDMI, S/PDIF…).
            case other
            /// The server does not say (servers before PulseAudio 14, many virtual sinks).
            case unknown
        }

        /// Jack detection (`pa_port_available`).
        public enum Availability: Sendable, Hashable {
            /// Something is plugged in.
            case available
            /// Nothing is plugged in.
            case unavailable
            /// The hardware cannot tell.
            case unknown
        }

        /// Whether the port is worn or held to the ear. Ports of an unknown type are judged by
        /// their name, as servers before PulseAudio 14 name headphone jacks
        /// `analog-output-headphones`.
        var isWornOrHeld: Bool {
            switch kind {
            case .headphones, .headset, .handset: true
            case .speaker, .other: false
            case .unknown: ["headphone", "headset", "handset", "earpiece"].contains { name.lowercased().contains($0) }
            }
        }
    }

    /// `device.form_factor` values of devices that only the wearer hears.
    static let privateFormFactors: Set<String> = ["headphone", "headset", "handset"]

    /// Whether only the listener hears this route: headphones, a headset or a handset, by the
    /// active port (plugged in, as far as the hardware can tell) or, for a sink without such a
    /// port, by the device's form factor (Bluetooth and USB headphones set it).
    public var isPrivateListening: Bool {
        if let port = activePort {
            // An unplugged jack that is still the active port sounds nowhere, or through the
            // speakers the hardware falls back to: not private.
            if port.availability == .unavailable { return false }
            if port.isWornOrHeld { return true }
        }
        return formFactor.map { Self.privateFormFactors.contains($0.lowercased()) } ?? false
    }
}

extension OutputRoute: CustomStringConvertible {
    /// The sink's name, with the port when there is one: `sink:port`.
    public var description: String {
        activePort.map { "\(sinkName):\($0.name)" } ?? sinkName
    }
}
