internal import CPulse

extension OutputRoute {
    /// The route to a sink as libpulse reports it.
    init(_ sink: pa_sink_info) {
        let name = sink.name.map { String(cString: $0) } ?? "sink \(sink.index)"
        self.init(
            sinkIndex: sink.index, sinkName: name, activePort: sink.active_port.map { Port($0.pointee) },
            formFactor: Self.property(PA_PROP_DEVICE_FORM_FACTOR, of: sink.proplist),
            bus: Self.property(PA_PROP_DEVICE_BUS, of: sink.proplist))
    }

    private static func property(_ key: String, of list: OpaquePointer?) -> String? {
        guard let list, let value = pa_proplist_gets(list, key) else { return nil }
        return String(cString: value)
    }
}

extension OutputRoute.Port {
    /// A sink port as libpulse reports it; `type` is there since PulseAudio 14 (0, unknown,
    /// from older servers).
    init(_ port: pa_sink_port_info) {
        self.init(
            name: port.name.map { String(cString: $0) } ?? "",
            kind: Kind(portType: port.type), availability: Availability(port.available))
    }
}

extension OutputRoute.Port.Kind {
    init(portType: UInt32) {
        switch pa_device_port_type(rawValue: portType) {
        case PA_DEVICE_PORT_TYPE_HEADPHONES: self = .headphones
        case PA_DEVICE_PORT_TYPE_HEADSET: self = .headset
        case PA_DEVICE_PORT_TYPE_HANDSET, PA_DEVICE_PORT_TYPE_EARPIECE: self = .handset
        case PA_DEVICE_PORT_TYPE_SPEAKER: self = .speaker
        case PA_DEVICE_PORT_TYPE_UNKNOWN: self = .unknown
        default: self = .other
        }
    }
}

extension OutputRoute.Port.Availability {
    init(_ available: Int32) {
        switch pa_port_available(rawValue: UInt32(bitPattern: available)) {
        case PA_PORT_AVAILABLE_YES: self = .available
        case PA_PORT_AVAILABLE_NO: self = .unavailable
        default: self = .unknown
        }
    }
}
