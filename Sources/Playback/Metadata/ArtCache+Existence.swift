import Glibc

extension ArtCache {
    /// Whether the art `uri` names is still there (true for no art, or art that is not a local
    /// file): a cached scan that points at a deleted image must be read again.
    static func stillExists(_ uri: String?) -> Bool {
        guard let uri, let path = LocalFileReader.localPath(of: uri) else { return true }
        return access(path, F_OK) == 0
    }

    /// Whether the art `artURI` names is a file in the folder of the local track `trackURI`:
    /// a cover file beside it, not art read from the track (that is written elsewhere, to the
    /// cache's own directory).
    static func isBeside(_ artURI: String, _ trackURI: String) -> Bool {
        guard let art = LocalFileReader.localPath(of: artURI), let track = LocalFileReader.localPath(of: trackURI),
              let artSlash = art.lastIndex(of: "/"), let trackSlash = track.lastIndex(of: "/")
        else { return false }
        return art[..<artSlash] == track[..<trackSlash]
    }
}
