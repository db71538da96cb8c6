/// The objects a connection exports, by path, each with its interfaces in declaration order.
struct ObjectRegistry {
    private(set) var objects: [ObjectPath: [DBusInterface]] = [:]

    /// Adds `interfaces` at `path`, replacing same-named interfaces already there.
    mutating func add(_ interfaces: [DBusInterface], at path: ObjectPath) {
        var existing = objects[path] ?? []
        for interface in interfaces {
            if let index = existing.firstIndex(where: { $0.name == interface.name }) {
                existing[index] = interface
            } else {
                existing.append(interface)
            }
        }
        objects[path] = existing
    }

    mutating func remove(path: ObjectPath) {
        objects[path] = nil
    }

    mutating func remove(interface: InterfaceName, at path: ObjectPath) {
        objects[path]?.removeAll { $0.name == interface }
        if objects[path]?.isEmpty == true { objects[path] = nil }
    }

    func interfaces(at path: ObjectPath) -> [DBusInterface]? { objects[path] }

    /// The object exported at `text` (a received call's path as libdbus holds it), with its path.
    /// A service exports a handful of objects: they are compared with the C string directly, so
    /// routing a call builds no string; past ``scannedObjects`` the dictionary is asked.
    func object(at text: UnsafePointer<CChar>) -> (path: ObjectPath, interfaces: [DBusInterface])? {
        guard objects.count > Self.scannedObjects else {
            return objects.first { $0.key.isSame(as: text) }.map { ($0.key, $0.value) }
        }
        let path = ObjectPath(unchecked: String(cString: text))
        return objects[path].map { (path, $0) }
    }

    static let scannedObjects = 8

    /// The names of the nodes directly below `path` that lead to exported objects.
    func childNodes(of path: ObjectPath) -> [String] {
        let depth = path.components.count
        var names = Set<String>()
        for exported in objects.keys where exported != path && exported.isDescendant(of: path) {
            names.insert(String(exported.components[depth]))
        }
        return names.sorted()
    }
}
