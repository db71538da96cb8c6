import CGStreamer
import Foundation
@testable import Playback
import Synchronization
import Testing

/// `SinkVolumeControl`: a sink without a volume control gets a `volume` element, so that
/// playbin's playsink (GStreamer 1.22) does not build a soft-volume converter bin at every pass
/// through NULL and keep it forever (measured: ~4 KiB of heap per track load).
@Suite struct SinkVolumeControlTests {
    @Test func aSinkWithoutVolumeGetsOneAndASinkWithOneIsKept() throws {
        GStreamerRuntime.ensureInitialized()
        let bare = try owned(#require(gst_element_factory_make("fakesink", nil)))
        let wrapped = SinkVolumeControl.ensured(on: bare)
        defer { gst_object_unref(wrapped.asObject) }
        #expect(wrapped != bare)
        #expect(wrapped.descendants.contains { $0.factoryName == "volume" })
        #expect(wrapped.descendants.contains { $0 == bare })

        let withVolume = try owned(#require(gst_parse_bin_from_description("volume ! fakesink", 1, nil)))
        let kept = SinkVolumeControl.ensured(on: withVolume)
        defer { gst_object_unref(kept.asObject) }
        #expect(kept == withVolume)
    }

    /// Loads through NULL as `GStreamerPipeline` does, with its flags and a null sink made the
    /// same way: every element playbin builds on the way must be gone once playbin is.
    @Test(.timeLimit(.minutes(2))) func everyElementPlaybinBuildsIsFreedAfterLoadsThroughNull() async throws {
        GStreamerRuntime.ensureInitialized()
        let media = try MediaFactory()
        let uris = [
            try await media.ogg("one.ogg", tags: "title=\"One\""), try await media.ogg("two.ogg", tags: "title=\"Two\""),
        ]
        let playbin = try owned(#require(gst_element_factory_make("playbin", nil)))
        playbin.set("flags", GStreamerPipeline.audioOnlyFlags)
        let nullSink = try owned(#require(gst_element_factory_make("fakesink", nil)))
        nullSink.set("sync", true)
        let sink = SinkVolumeControl.ensured(on: nullSink)
        playbin.set("audio-sink", element: sink)
        gst_object_unref(sink.asObject)
        let ours = Set(sink.descendants.map { UInt(bitPattern: $0) } + [UInt(bitPattern: sink)])

        // Each element is watched once, under a number of its own (addresses are reused).
        var watched: [UInt: String] = [:]
        for load in 0..<4 {
            gst_element_set_state(playbin, GST_STATE_NULL)
            playbin.set("uri", uris[load % uris.count])
            gst_element_set_state(playbin, GST_STATE_PLAYING)
            try waitForAsyncDone(playbin)
            for element in playbin.descendants where !ours.contains(UInt(bitPattern: element)) {
                #expect(element.factoryName != "volume", "playsink built a volume element of its own")
                let object = UnsafeMutableRawPointer(element).assumingMemoryBound(to: GObject.self)
                guard g_object_get_data(object, "linnet-test-watched") == nil else { continue }
                let key = UInt(watched.count + 1)
                watched[key] = element.factoryName ?? "bin"
                g_object_set_data(object, "linnet-test-watched", UnsafeMutableRawPointer(bitPattern: key))
                g_object_weak_ref(object, { key, _ in
                    disposed.withLock { _ = $0.insert(UInt(bitPattern: key)) }
                }, UnsafeMutableRawPointer(bitPattern: key))
            }
        }
        gst_element_set_state(playbin, GST_STATE_NULL)
        gst_object_unref(playbin.asObject)
        // A streaming thread winding down may drop the last reference to an element just after
        // playbin is gone: a leaked element is one still alive well after that.
        var left = Set(watched.keys)
        let deadline = ContinuousClock.now + .seconds(10)
        while true {
            left.subtract(disposed.withLock { $0 })
            if left.isEmpty || ContinuousClock.now > deadline { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(left.isEmpty, "still alive of the \(watched.count) elements playbin built: \(left.compactMap { watched[$0] }.sorted())")
    }

    private func waitForAsyncDone(_ playbin: UnsafeMutablePointer<GstElement>) throws {
        let bus = try #require(gst_element_get_bus(playbin))
        defer { gst_object_unref(UnsafeMutableRawPointer(bus).assumingMemoryBound(to: GstObject.self)) }
        let wanted = GstMessageType(GST_MESSAGE_ASYNC_DONE.rawValue | GST_MESSAGE_ERROR.rawValue)
        let message = try #require(gst_bus_timed_pop_filtered(bus, 30_000_000_000, wanted), "the load never prerolled")
        defer { gst_message_unref(message) }
        #expect(message.pointee.type == GST_MESSAGE_ASYNC_DONE)
    }

    private func owned(_ element: UnsafeMutablePointer<GstElement>) -> UnsafeMutablePointer<GstElement> {
        UnsafeMutableRawPointer(gst_object_ref_sink(element)!).assumingMemoryBound(to: GstElement.self)
    }
}

/// Elements whose weak reference fired (by their number), from whichever thread disposed them.
private let disposed = Mutex<Set<UInt>>([])
