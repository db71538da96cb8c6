import Glibc

extension ArtCache {
    /// Whether the art `uri` names is still there (true for no art, or art that is not a local
    /// file): a cached scan that points at a deleted image must be read again.
    static func stillExists(_ uri: String?) -> Bool {
        guard let uri, let path = LocalFileReader.localPath(of: uri) else { return true }
        return access(path, F_OK) == 0
    }
}
