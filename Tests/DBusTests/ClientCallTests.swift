import DBus
import Foundation
import Glibc
import Testing
import TestSupport

/// Method calls from our client: typed results, errors, timeouts, deferred and async replies.
@Suite struct ClientCallTests {
    let bus: PrivateBus
    let object: SampleObject
    let client: DBusConnection
    let sample: DBusProxy

    init() throws {
        bus = try PrivateBus()
        object = try SampleObject(bus: bus)
        client = try DBusConnection(address: bus.address)
        sample = DBusProxy(connection: client, destination: SampleObject.name, path: SampleObject.path,
                           interface: SampleObject.interface)
    }

    @Test func asyncAndBlockingCallsReturnTypedResults() async throws {
        let asyncSum = try await sample.call("Add", [.int32(2), .int32(3)])
        #expect(try asyncSum[0].decode(as: Int32.self) == 5)
        let blockingSum = try sample.callBlocking("Add", [.int32(-7), .int32(3)])
        #expect(blockingSum == [.int32(-4)])
    }

    @Test func peerErrorsArriveWithNameAndMessage() async throws {
        do {
            try await sample.call("Fail")
            Issue.record("Fail did not throw")
        } catch {
            #expect(error.name == SampleObject.customError)
            #expect(error.message == "asked to fail")
        }
        #expect(throws: DBusError.self) { try sample.callBlocking("Fail") }
    }

    @Test func deferredAndAsyncHandlersAnswerLater() async throws {
        #expect(try await sample.call("Later", [.string("quiet")]) == [.string("QUIET")])
        #expect(try await sample.call("Async", [.uint32(21)]) == [.uint32(42)])
    }

    @Test func callTimesOutWithNoReply() async throws {
        let started = ContinuousClock.now
        do {
            try await sample.call("Never", timeout: .milliseconds(200))
            Issue.record("Never answered")
        } catch {
            #expect(error.name == .noReply)
        }
        print("NoReply after \(ContinuousClock.now - started) (timeout 200 ms)")
        do {
            try sample.callBlocking("Never", timeout: .milliseconds(200))
            Issue.record("Never answered")
        } catch {
            #expect(error.name == .noReply)
        }
    }

    /// `call(…completion:)` hands the reply over in dispatch order: every signal the peer sent
    /// before replying has reached its handler by then (how `linnet lyrics --follow` tells stale
    /// signals from new ones).
    @Test func signalsSentBeforeAReplyAreHandledBeforeItsCompletion() async throws {
        let seen = Recorder<Int64>()
        let subscription = try client.subscribe(MatchRule(sender: SampleObject.name, interface: SampleObject.interface, member: "Seeked")) {
            if case .int64(let position)? = $0.arguments.first { seen.record(position) }
        }
        for position in 0..<200 {
            try object.connection.emitSignal("Seeked", interface: SampleObject.interface, path: SampleObject.path,
                                             arguments: [.int64(Int64(position))])
        }
        let client = self.client
        let countAtReply: Int = try await withCheckedThrowingContinuation { continuation in
            client.call(destination: SampleObject.name, path: SampleObject.path, interface: SampleObject.interface,
                        member: "Add", arguments: [.int32(1), .int32(2)]) { result in
                continuation.resume(with: result.map { _ in seen.values.count })
            }
        }
        #expect(countAtReply == 200)
        subscription.cancel()
    }

    @Test func callsToMissingServicesFail() async throws {
        let missing = DBusProxy(connection: client, destination: "org.linnet.Missing", path: "/", interface: "org.linnet.X")
        do {
            try await missing.call("Y")
            Issue.record("call to a missing service succeeded")
        } catch {
            #expect(error.name == .serviceUnknown)
        }
    }

    @Test func invalidValuesAreRefusedBeforeSending() async throws {
        // An array whose element does not match its declared type would make libdbus abort.
        let malformed = DBusValue.array(.string, [.int32(1)])
        #expect(throws: DBusError.self) { try sample.callBlocking("Add", [malformed, .int32(1)]) }
        #expect(throws: DBusError.self) { try sample.callBlocking("Add", [.string("nul\0inside"), .int32(1)]) }
        var nested = DBusValue.int32(0)
        for _ in 0..<70 { nested = .variant(nested) }
        #expect(throws: DBusError.self) { try sample.callBlocking("Add", [nested]) }
        // The connection is still usable.
        #expect(try await sample.call("Add", [.int32(1), .int32(1)]) == [.int32(2)])
    }

    @Test func propertiesThroughTheProxy() async throws {
        #expect(try await sample.property("Identity") == .string("Sample"))
        try await sample.setProperty("Volume", to: .double(0.75))
        #expect(object.currentVolume == 0.75)
        let all = try await sample.allProperties()
        #expect(all["Volume"] == .double(0.75))
        #expect(all["Empty"] == .array(.string, []))
        do {
            try await sample.setProperty("Volume", to: .string("loud"))
            Issue.record("wrong type accepted")
        } catch {
            #expect(error.name == .invalidArgs)
        }
    }

    @Test func unixFileDescriptorsTravel() async throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        let server = try DBusConnection(address: bus.address)
        let received = Recorder<String>()
        try server.export([DBusInterface(name: "org.linnet.Fd", methods: [
            DBusMethod("Write", inputs: [DBusArgument("fd", .unixFD)]) { call in
                let descriptor = try call.argument(0, as: UnixFileDescriptor.self)
                let text = "through the bus"
                _ = text.withCString { write(descriptor.rawValue, $0, strlen($0)) }
                received.record(text)
                return []
            },
        ])], at: "/fd")
        let writer = UnixFileDescriptor(taking: fds[1])
        _ = try client.callBlocking(destination: server.uniqueName, path: "/fd", interface: "org.linnet.Fd",
                                member: "Write", arguments: [writer.dbusValue])
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(fds[0], &buffer, 64)
        #expect(String(decoding: buffer[0..<max(0, count)], as: UTF8.self) == "through the bus")
        #expect(received.values.count == 1)
    }
}

