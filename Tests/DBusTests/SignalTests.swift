import DBus
import Foundation
import Testing
import TestSupport

/// Signal emission and subscription with match rules, between our connections and real tools.
@Suite struct SignalTests {
    @Test func subscriptionReceivesOnlyMatchingSignals() async throws {
        let bus = try PrivateBus()
        let emitter = try DBusConnection(address: bus.address)
        let listener = try DBusConnection(address: bus.address)
        let seeked = Recorder<DBusSignal>()
        let everything = Recorder<DBusSignal>()
        let subscription = try listener.subscribe(
            MatchRule(path: "/player", interface: "org.linnet.Player", member: "Seeked")) { seeked.record($0) }
        let all = try listener.subscribe(MatchRule(interface: "org.linnet.Player")) { everything.record($0) }

        try emitter.emitSignal("Other", interface: "org.linnet.Player", path: "/player")
        try emitter.emitSignal("Seeked", interface: "org.linnet.Player", path: "/elsewhere", arguments: [.int64(1)])
        try emitter.emitSignal("Seeked", interface: "org.linnet.Player", path: "/player", arguments: [.int64(42)])
        try await waitUntil { everything.values.count == 3 }
        #expect(seeked.values.count == 1)
        #expect(seeked.values.first?.arguments == [.int64(42)])
        #expect(seeked.values.first?.sender == emitter.uniqueName)

        subscription.cancel()
        try emitter.emitSignal("Seeked", interface: "org.linnet.Player", path: "/player", arguments: [.int64(43)])
        try await waitUntil { everything.values.count == 4 }
        #expect(seeked.values.count == 1)
        all.cancel()
    }

    @Test func argumentMatchAndWellKnownSender() async throws {
        let bus = try PrivateBus()
        let named = try DBusConnection(address: bus.address)
        let anonymous = try DBusConnection(address: bus.address)
        let listener = try DBusConnection(address: bus.address)
        #expect(try named.requestName("org.linnet.Named") == .primaryOwner)
        let fromNamed = Recorder<DBusSignal>()
        let byArgument = Recorder<DBusSignal>()
        let catchAll = Recorder<DBusSignal>()
        let s1 = try listener.subscribe(MatchRule(sender: "org.linnet.Named", interface: "org.linnet.S")) { fromNamed.record($0) }
        let s2 = try listener.subscribe(MatchRule(interface: "org.linnet.S", arguments: [0: "it's"])) { byArgument.record($0) }
        let s3 = try listener.subscribe(MatchRule(interface: "org.linnet.S")) { catchAll.record($0) }

        try anonymous.emitSignal("Ping", interface: "org.linnet.S", path: "/", arguments: [.string("it's")])
        try named.emitSignal("Ping", interface: "org.linnet.S", path: "/", arguments: [.string("other")])
        try await waitUntil { catchAll.values.count == 2 }
        #expect(fromNamed.values.map(\.sender) == [named.uniqueName])
        #expect(byArgument.values.map(\.sender) == [anonymous.uniqueName])

        // The well-known name moves to another connection: the subscription follows it.
        #expect(try named.releaseName("org.linnet.Named") == .released)
        #expect(try anonymous.requestName("org.linnet.Named") == .primaryOwner)
        // A round trip through the listener: the bus delivered NameOwnerChanged before this reply.
        _ = try listener.callBlocking(destination: .bus, path: "/org/freedesktop/DBus", interface: .peer, member: "Ping")
        try named.emitSignal("Ping", interface: "org.linnet.S", path: "/", arguments: [.string("x")])
        try anonymous.emitSignal("Ping", interface: "org.linnet.S", path: "/", arguments: [.string("y")])
        try await waitUntil { catchAll.values.count == 4 }
        #expect(fromNamed.values.map(\.sender) == [named.uniqueName, anonymous.uniqueName])
        _ = (s1, s2, s3)
    }

    @Test func signalsFromGdbusEmitArrive() async throws {
        let bus = try PrivateBus()
        let listener = try DBusConnection(address: bus.address)
        let stream = try listener.signals(matching: MatchRule(interface: "org.linnet.Tool", member: "Said"))
        // `gdbus emit --address` opens a peer connection that never says Hello, so the bus drops
        // its signal; `--session` with the private bus as session bus registers properly.
        let result = try ExternalTool.run("gdbus", [
            "emit", "--session", "--object-path", "/tool", "--signal", "org.linnet.Tool.Said",
            "'hello'", "{'k': <int32 5>}",
        ], environment: bus.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let signal = try await withTimeout(.seconds(10), "gdbus signal") {
            var iterator = stream.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(signal?.path == "/tool")
        #expect(signal?.arguments == [.string("hello"), .stringVariantDictionary([("k", .int32(5))])])
    }

    @Test func propertiesChangedFollowsEachPropertysPolicy() async throws {
        let bus = try PrivateBus()
        let object = try SampleObject(bus: bus)
        let listener = try DBusConnection(address: bus.address)
        let changes = Recorder<DBusSignal>()
        let subscription = try listener.subscribe(
            MatchRule(path: SampleObject.path, interface: .properties, member: "PropertiesChanged")) { changes.record($0) }
        object.setVolume(0.9)
        try object.connection.notifyPropertiesChanged(
            ["Volume", "Identity", "Tracks", "Position"], interface: SampleObject.interface, path: SampleObject.path)
        // Only const/false properties: nothing at all is sent.
        try object.connection.notifyPropertiesChanged(["Identity", "Position"], interface: SampleObject.interface, path: SampleObject.path)
        try object.connection.notifyPropertiesChanged(["Empty"], interface: SampleObject.interface, path: SampleObject.path)
        // Signals from one sender arrive in order: once the last one is here, anything the
        // const/false-only call had sent would be here too.
        try await waitUntil { changes.values.contains { $0.arguments[1]["Empty"] != nil } }
        #expect(changes.values.count == 2)
        #expect(changes.values[0].arguments == [
            .string("org.linnet.Sample"),
            .stringVariantDictionary([("Volume", .double(0.9))]),
            .array(.string, [.string("Tracks")]),
        ])
        // An empty list still carries its signature: the value is `as`, not an untyped nothing.
        #expect(changes.values[1].arguments[1] == .stringVariantDictionary([("Empty", .array(.string, []))]))
        #expect(changes.values[1].arguments[2] == .array(.string, []))
        subscription.cancel()
    }

    @Test func signalFromAnotherThreadArrivesPromptly() async throws {
        let bus = try PrivateBus()
        let emitter = try DBusConnection(address: bus.address)
        let listener = try DBusConnection(address: bus.address)
        let arrivals = Recorder<(Int, ContinuousClock.Instant)>()
        let subscription = try listener.subscribe(MatchRule(interface: "org.linnet.Latency")) { signal in
            if case .int32(let index)? = signal.arguments.first { arrivals.record((Int(index), .now)) }
        }
        var sentAt: [ContinuousClock.Instant] = []
        for index in 0..<50 {
            // Emitted from this task's thread, not the loop thread; paced so each is measured alone.
            sentAt.append(.now)
            try emitter.emitSignal("Tick", interface: "org.linnet.Latency", path: "/", arguments: [.int32(Int32(index))])
            try await Task.sleep(for: .milliseconds(5))
        }
        try await waitUntil { arrivals.values.count == 50 }
        let latencies = arrivals.values.map { ($0.1 - sentAt[$0.0]) }.sorted()
        #expect(arrivals.values.map(\.0) == Array(0..<50), "signals arrive in order")
        print("signal latency from a non-loop thread: median \(latencies[25]), p90 \(latencies[45]), max \(latencies[49])")
        subscription.cancel()
    }
}
