internal import CGStreamer

/// Typed access to GObject properties of GStreamer elements through the C shim.
extension UnsafeMutablePointer where Pointee == GstElement {
    func set(_ name: String, _ value: String) { linnet_gst_set_string(self, name, value) }
    func set(_ name: String, _ value: Double) { linnet_gst_set_double(self, name, value) }
    func set(_ name: String, _ value: UInt32) { linnet_gst_set_uint(self, name, value) }
    func set(_ name: String, _ value: Bool) { linnet_gst_set_boolean(self, name, value ? 1 : 0) }
    func set(_ name: String, element: UnsafeMutablePointer<GstElement>?) {
        linnet_gst_set_pointer(self, name, element.map { UnsafeMutableRawPointer($0) })
    }
    func string(_ name: String) -> String? { takeString(linnet_gst_get_string(self, name)) }
    func double(_ name: String) -> Double { linnet_gst_get_double(self, name) }
    func bool(_ name: String) -> Bool { linnet_gst_get_boolean(self, name) != 0 }
    func hasProperty(_ name: String) -> Bool { linnet_gst_has_property(self, name) != 0 }

    /// The element's factory name, e.g. "fakesink", or nil for hand-made bins.
    var factoryName: String? { linnet_gst_factory_name(self).map { String(cString: $0) } }

    /// The element as a bin, when it is one.
    var asBin: UnsafeMutablePointer<GstBin>? {
        linnet_gst_is_bin(self) != 0
            ? UnsafeMutableRawPointer(self).assumingMemoryBound(to: GstBin.self) : nil
    }

    /// The element as a GstObject, for the GstObject API (GST_OBJECT is a macro cast).
    var asObject: UnsafeMutablePointer<GstObject> {
        UnsafeMutableRawPointer(self).assumingMemoryBound(to: GstObject.self)
    }

    /// Elements inside this bin, recursively (leaf elements and sub-bins).
    var descendants: [UnsafeMutablePointer<GstElement>] {
        guard let bin = asBin, let iterator = gst_bin_iterate_recurse(bin) else { return [] }
        defer { gst_iterator_free(iterator) }
        var found: [UnsafeMutablePointer<GstElement>] = []
        var value = GValue()
        // A resync means the bin changed under us; restarting gives a consistent snapshot.
        loop: while true {
            switch gst_iterator_next(iterator, &value) {
            case GST_ITERATOR_OK:
                if let object = g_value_get_object(&value) {
                    found.append(object.assumingMemoryBound(to: GstElement.self))
                }
                g_value_reset(&value)
            case GST_ITERATOR_RESYNC:
                found.removeAll()
                gst_iterator_resync(iterator)
            default:
                break loop
            }
        }
        if value.g_type != 0 { g_value_unset(&value) }
        // The iterator's references are gone; the bin still holds its children.
        return found
    }
}
