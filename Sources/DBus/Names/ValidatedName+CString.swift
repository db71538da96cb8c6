import Glibc

extension ValidatedName {
    /// Whether this name is `text`, a C string libdbus holds (a header field or an argument of a
    /// received message), compared without building a Swift string for it.
    func isSame(as text: UnsafePointer<CChar>) -> Bool {
        rawValue.withCString { strcmp($0, text) == 0 }
    }
}
