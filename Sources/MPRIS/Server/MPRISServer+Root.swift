import DBus

extension MPRISServer {
    /// `org.mpris.MediaPlayer2`.
    func makeRootInterface() -> DBusInterface {
        DBusInterface(
            name: MPRISNames.root,
            methods: [
                DBusMethod("Raise") { [weak self] _ in
                    guard let self else { return [] }
                    // "If CanRaise is false, this method will have no effect, and may raise a NotSupported error."
                    guard state.withLock({ $0.root.canRaise }) else {
                        throw DBusError(.notSupported, "this player cannot raise a window (CanRaise is false)")
                    }
                    rootHandler.raise()
                    return []
                },
                DBusMethod("Quit") { [weak self] _ in
                    guard let self else { return [] }
                    guard state.withLock({ $0.root.canQuit }) else {
                        throw DBusError(.notSupported, "this player cannot be quit over D-Bus (CanQuit is false)")
                    }
                    rootHandler.quit()
                    return []
                },
            ],
            properties: declare(PropertyTable.root, setters: [
                "Fullscreen": { [weak self] value in
                    guard let self, case .boolean(let fullscreen) = value else { return }
                    guard state.withLock({ $0.root.canSetFullscreen }) else {
                        throw DBusError(.notSupported, "fullscreen cannot be set (CanSetFullscreen is false)")
                    }
                    rootHandler.setFullscreen(fullscreen)
                },
            ]),
            annotations: [DBusAnnotation(name: "org.freedesktop.DBus.Property.EmitsChangedSignal", value: "true")],
            propertiesWriter: writeAll(PropertyTable.root, same: { $0.root == $1.root }))
    }
}
