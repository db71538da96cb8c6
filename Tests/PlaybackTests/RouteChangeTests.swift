import Playback
import Testing

/// The route classifier over values shaped like what libpulse reports for real hardware: a
/// laptop's analog sink whose active port moves between speakers and the headphone jack (the
/// step no null sink can stage end to end), Bluetooth and USB headsets that carry a form factor,
/// and servers older than PulseAudio 14 that give ports no type.
@Suite struct RouteChangeTests {
    static let laptopSink = "alsa_output.pci-0000_00_1f.3.analog-stereo"

    static func laptop(_ port: OutputRoute.Port, index: UInt32 = 1) -> OutputRoute {
        OutputRoute(sinkIndex: index, sinkName: laptopSink, activePort: port, formFactor: "internal", bus: "pci")
    }

    static let speakers = OutputRoute.Port(name: "analog-output-speaker", kind: .speaker, availability: .unknown)
    static let jack = OutputRoute.Port(name: "analog-output-headphones", kind: .headphones, availability: .available)
    static let unpluggedJack = OutputRoute.Port(name: "analog-output-headphones", kind: .headphones, availability: .unavailable)
    static let hdmi = OutputRoute.Port(name: "hdmi-output-0", kind: .other, availability: .available)
    static let bluetoothHeadset = OutputRoute(
        sinkIndex: 7, sinkName: "bluez_output.00_1B_66_AA_BB_CC.1",
        activePort: OutputRoute.Port(name: "headphone-output", kind: .headphones, availability: .available),
        formFactor: "headphone", bus: "bluetooth")
    static let usbHeadset = OutputRoute(
        sinkIndex: 9, sinkName: "alsa_output.usb-Logitech_USB_Headset-00.analog-stereo",
        activePort: OutputRoute.Port(name: "analog-output", kind: .other, availability: .unknown),
        formFactor: "headset", bus: "usb")
    static let nullSpeakers = OutputRoute(sinkIndex: 3, sinkName: "speakers")

    // MARK: Private listening

    @Test func headphonePortsAndHeadphoneDevicesArePrivate() {
        #expect(Self.laptop(Self.jack).isPrivateListening)
        #expect(Self.bluetoothHeadset.isPrivateListening)
        #expect(Self.usbHeadset.isPrivateListening, "a USB headset is judged by its form factor")
        let handset = OutputRoute.Port(name: "earpiece", kind: .handset, availability: .unknown)
        #expect(Self.laptop(handset).isPrivateListening)
        let headsetPort = OutputRoute.Port(name: "analog-output-headset", kind: .headset, availability: .available)
        #expect(Self.laptop(headsetPort).isPrivateListening)
    }

    @Test func speakersLineOutsAndPlainSinksAreNotPrivate() {
        #expect(!Self.laptop(Self.speakers).isPrivateListening)
        #expect(!Self.laptop(Self.hdmi).isPrivateListening)
        #expect(!Self.nullSpeakers.isPrivateListening)
        #expect(!OutputRoute(sinkIndex: 4, sinkName: "tv", formFactor: "tv").isPrivateListening)
    }

    @Test func anUnpluggedHeadphoneJackIsNotPrivateEvenWhileActive() {
        #expect(!Self.laptop(Self.unpluggedJack).isPrivateListening)
    }

    @Test func untypedPortsFromOlderServersAreJudgedByName() {
        let old = OutputRoute.Port(name: "analog-output-headphones", kind: .unknown, availability: .available)
        let oldSpeaker = OutputRoute.Port(name: "analog-output-speaker", kind: .unknown, availability: .unknown)
        #expect(Self.laptop(old).isPrivateListening)
        #expect(!Self.laptop(oldSpeaker).isPrivateListening)
    }

    @Test func formFactorsAreMatchedWhateverTheirCase() {
        #expect(OutputRoute(sinkIndex: 2, sinkName: "x", formFactor: "Headphone").isPrivateListening)
    }

    // MARK: Same sink: port changes

    @Test func headphonesUnpluggedOnTheSameSinkEndPrivateListening() {
        let change = RouteChange.classify(from: Self.laptop(Self.jack), to: Self.laptop(Self.speakers), oldSinkStillExists: true)
        #expect(change == .privateListeningEnded)
        #expect(change.lostRoute)
    }

    @Test func theJackReportedUnpluggedBeforeThePortMovesEndsPrivateListening() {
        let change = RouteChange.classify(from: Self.laptop(Self.jack), to: Self.laptop(Self.unpluggedJack), oldSinkStillExists: true)
        #expect(change == .privateListeningEnded)
    }

    @Test func headphonesPluggedInStartPrivateListeningAndKeepPlaying() {
        let change = RouteChange.classify(from: Self.laptop(Self.speakers), to: Self.laptop(Self.jack), oldSinkStillExists: true)
        #expect(change == .privateListeningStarted)
        #expect(!change.lostRoute)
    }

    @Test func aPortChangeBetweenPublicOutputsChangesNothing() {
        #expect(RouteChange.classify(from: Self.laptop(Self.speakers), to: Self.laptop(Self.hdmi), oldSinkStillExists: true) == .unchanged)
        #expect(RouteChange.classify(from: Self.laptop(Self.jack), to: Self.laptop(Self.jack), oldSinkStillExists: true) == .unchanged)
    }

    // MARK: Another sink

    @Test func theFirstRouteIsInitial() {
        let change = RouteChange.classify(from: nil, to: Self.bluetoothHeadset, oldSinkStillExists: false)
        #expect(change == .initial)
        #expect(!change.lostRoute)
    }

    @Test func aVanishedSinkIsLostWhateverItWas() {
        for old in [Self.bluetoothHeadset, Self.nullSpeakers, Self.usbHeadset] {
            for new in [Self.laptop(Self.speakers), Self.laptop(Self.jack)] {
                let change = RouteChange.classify(from: old, to: new, oldSinkStillExists: false)
                #expect(change == .sinkVanished, "\(old) → \(new)")
                #expect(change.lostRoute)
            }
        }
    }

    /// The README's rule: a mixer move to an output that still exists is the user's choice,
    /// headphones to speakers included; only the same sink's port leaving the headphones pauses.
    @Test func aMoveToAnotherExistingOutputIsAMoveEvenOffTheHeadphones() {
        let cases: [(OutputRoute, OutputRoute)] = [
            (Self.nullSpeakers, Self.laptop(Self.speakers)),
            (Self.laptop(Self.speakers), Self.bluetoothHeadset),
            (Self.bluetoothHeadset, Self.usbHeadset),
            (Self.bluetoothHeadset, Self.laptop(Self.speakers)),
            (Self.laptop(Self.jack), Self.nullSpeakers),
        ]
        for (old, new) in cases {
            let change = RouteChange.classify(from: old, to: new, oldSinkStillExists: true)
            #expect(change == .moved, "\(old) → \(new)")
            #expect(!change.lostRoute)
        }
    }

    @Test func aSinkIsKnownByIndexNotByName() {
        // The same device unplugged and plugged back in comes back with a new index.
        let back = OutputRoute(
            sinkIndex: 12, sinkName: Self.bluetoothHeadset.sinkName, activePort: Self.bluetoothHeadset.activePort,
            formFactor: "headphone", bus: "bluetooth")
        #expect(RouteChange.classify(from: Self.bluetoothHeadset, to: back, oldSinkStillExists: false) == .sinkVanished)
    }

    @Test func onlyVanishingAndLeavingHeadphonesLoseTheRoute() {
        let all: [RouteChange] = [.initial, .unchanged, .sinkVanished, .privateListeningEnded, .privateListeningStarted, .moved]
        #expect(all.filter(\.lostRoute) == [.sinkVanished, .privateListeningEnded])
    }

    @Test func theDescriptionNamesSinkAndPort() {
        #expect(Self.laptop(Self.jack).description == "\(Self.laptopSink):analog-output-headphones")
        #expect(Self.nullSpeakers.description == "speakers")
    }
}
