// The C++ side of linnet_taglib.h: TagLib's FileRef and property map, plus the per-format
// picture lists and ID3v2 synchronised lyrics, which the property map leaves out.
#include "linnet_taglib.h"

#include <taglib/attachedpictureframe.h>
#include <taglib/fileref.h>
#include <taglib/tfilestream.h>
#include <taglib/flacfile.h>
#include <taglib/id3v2tag.h>
#include <taglib/infotag.h>
#include <taglib/mp4file.h>
#include <taglib/mpegfile.h>
#include <taglib/opusfile.h>
#include <taglib/relativevolumeframe.h>
#include <taglib/synchronizedlyricsframe.h>
#include <taglib/tpropertymap.h>
#include <taglib/vorbisfile.h>
#include <taglib/wavfile.h>
#include <taglib/xiphcomment.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>
#include <typeinfo>
#include <vector>

struct linnet_taglib_tags {
    std::vector<std::string> keys;
    std::vector<std::string> values;
    int64_t length_ms = -1;
    size_t picture_count = 0;
    bool has_picture = false;
    bool picture_is_front_cover = false;
    std::vector<uint8_t> picture;
    std::string picture_type;
};

namespace {

/// `object` as a `Derived` when its dynamic type is named `name` or `also` (Itanium C++ ABI type
/// names, what `typeid(...).name()` returns on Linux), else null. This stands in for
/// dynamic_cast, which refers to TagLib's type_info objects: data the dynamic loader must bind at
/// start, so TagLib could not be opened on its first use (LazyLibraries). typeid of the object
/// reads its type from its vtable at run time and refers to nothing in TagLib. An exact match is
/// what dynamic_cast gave here: TagLib derives nothing from these classes except
/// AttachedPictureFrameV22 (ID3v2.2 pictures), which the picture reader names as `also`.
template <typename Derived, typename Base>
Derived *exactly(Base *object, const char *name, const char *also = nullptr) {
    if (!object) return nullptr;
    const char *actual = typeid(*object).name();
    if (std::strcmp(actual, name) == 0 || (also && std::strcmp(actual, also) == 0)) return static_cast<Derived *>(object);
    return nullptr;
}

bool has_key(const linnet_taglib_tags &tags, const char *key) {
    for (const auto &existing : tags.keys) {
        if (existing == key) return true;
    }
    return false;
}

/// Keeps `bytes` as the chosen picture: the first front cover, else the first picture.
void offer_picture(linnet_taglib_tags &tags, const TagLib::ByteVector &bytes, const TagLib::String &type,
                   bool front_cover) {
    tags.picture_count += 1;
    if (bytes.isEmpty()) return;
    if (tags.has_picture && (tags.picture_is_front_cover || !front_cover)) return;
    tags.picture.assign(bytes.begin(), bytes.end());
    tags.picture_type = type.to8Bit(true);
    tags.has_picture = true;
    tags.picture_is_front_cover = front_cover;
}

void read_id3v2_pictures(linnet_taglib_tags &tags, TagLib::ID3v2::Tag *id3) {
    if (!id3) return;
    for (auto *frame : id3->frameListMap()["APIC"]) {
        auto *picture = exactly<TagLib::ID3v2::AttachedPictureFrame>(
            frame, "N6TagLib5ID3v220AttachedPictureFrameE", "N6TagLib5ID3v223AttachedPictureFrameV22E");
        if (!picture) continue;
        offer_picture(tags, picture->picture(), picture->mimeType(),
                      picture->type() == TagLib::ID3v2::AttachedPictureFrame::FrontCover);
    }
}

void read_xiph_pictures(linnet_taglib_tags &tags, TagLib::Ogg::XiphComment *comment) {
    if (!comment) return;
    for (auto *picture : comment->pictureList()) {
        offer_picture(tags, picture->data(), picture->mimeType(),
                      picture->type() == TagLib::FLAC::Picture::FrontCover);
    }
}

/// ID3v2 SYLT frames as LRC text ("[mm:ss.xx]line"), when their times are in milliseconds.
std::string synchronised_lyrics(TagLib::ID3v2::Tag *id3) {
    std::string lrc;
    if (!id3) return lrc;
    for (auto *frame : id3->frameListMap()["SYLT"]) {
        auto *lyrics = exactly<TagLib::ID3v2::SynchronizedLyricsFrame>(frame, "N6TagLib5ID3v223SynchronizedLyricsFrameE");
        if (!lyrics || lyrics->timestampFormat() != TagLib::ID3v2::SynchronizedLyricsFrame::AbsoluteMilliseconds)
            continue;
        for (const auto &line : lyrics->synchedText()) {
            unsigned int ms = line.time;
            char stamp[32];
            std::snprintf(stamp, sizeof stamp, "[%02u:%02u.%02u]", ms / 60000, (ms / 1000) % 60, (ms % 1000) / 10);
            lrc += stamp;
            lrc += line.text.to8Bit(true);
            lrc += '\n';
        }
        if (!lrc.empty()) break;
    }
    return lrc;
}

/// ID3v2 RVA2 frames (what GStreamer's id3v2mux writes for ReplayGain) as REPLAYGAIN_* pairs,
/// unless TXXX frames gave those already. Peaks are fixed-point fractions of full scale.
void relative_volumes(linnet_taglib_tags &tags, TagLib::ID3v2::Tag *id3) {
    if (!id3) return;
    for (const auto &key : tags.keys) {
        if (key.compare(0, 11, "REPLAYGAIN_") == 0) return;
    }
    for (auto *frame : id3->frameListMap()["RVA2"]) {
        auto *volume = exactly<TagLib::ID3v2::RelativeVolumeFrame>(frame, "N6TagLib5ID3v219RelativeVolumeFrameE");
        if (!volume) continue;
        const std::string which = volume->identification().upper().to8Bit(true);
        if (which != "TRACK" && which != "ALBUM") continue;
        const auto channel = TagLib::ID3v2::RelativeVolumeFrame::MasterVolume;
        char text[32];
        std::snprintf(text, sizeof text, "%.2f dB", volume->volumeAdjustment(channel));
        tags.keys.push_back("REPLAYGAIN_" + which + "_GAIN");
        tags.values.emplace_back(text);
        const auto peak = volume->peakVolume(channel);
        if (peak.bitsRepresentingPeak > 0 && peak.bitsRepresentingPeak <= 32 && !peak.peakVolume.isEmpty()) {
            const double fraction = double(peak.peakVolume.toUInt(true)) / double(1ull << (peak.bitsRepresentingPeak - 1));
            std::snprintf(text, sizeof text, "%.6f", fraction);
            tags.keys.push_back("REPLAYGAIN_" + which + "_PEAK");
            tags.values.emplace_back(text);
        }
    }
}

void read_pictures_and_extras(linnet_taglib_tags &tags, TagLib::File *file, bool has_lyrics) {
    TagLib::ID3v2::Tag *id3 = nullptr;
    if (auto *mpeg = exactly<TagLib::MPEG::File>(file, "N6TagLib4MPEG4FileE")) {
        id3 = mpeg->hasID3v2Tag() ? mpeg->ID3v2Tag() : nullptr;
    } else if (auto *wav = exactly<TagLib::RIFF::WAV::File>(file, "N6TagLib4RIFF3WAV4FileE")) {
        id3 = wav->hasID3v2Tag() ? wav->ID3v2Tag() : nullptr;
        // TagLib reads a RIFF INFO track number from IPRT only; GStreamer and others write ITRK.
        if (!id3 && wav->hasInfoTag() && !has_key(tags, "TRACKNUMBER")) {
            const TagLib::String track = wav->InfoTag()->fieldText("ITRK");
            if (!track.isEmpty()) {
                tags.keys.emplace_back("TRACKNUMBER");
                tags.values.push_back(track.to8Bit(true));
            }
        }
    } else if (auto *flac = exactly<TagLib::FLAC::File>(file, "N6TagLib4FLAC4FileE")) {
        for (auto *picture : flac->pictureList()) {
            offer_picture(tags, picture->data(), picture->mimeType(),
                          picture->type() == TagLib::FLAC::Picture::FrontCover);
        }
        id3 = flac->hasID3v2Tag() ? flac->ID3v2Tag() : nullptr;
    } else if (auto *vorbis = exactly<TagLib::Ogg::Vorbis::File>(file, "N6TagLib6Vorbis4FileE")) {
        read_xiph_pictures(tags, vorbis->tag());
    } else if (auto *opus = exactly<TagLib::Ogg::Opus::File>(file, "N6TagLib3Ogg4Opus4FileE")) {
        read_xiph_pictures(tags, opus->tag());
    } else if (auto *mp4 = exactly<TagLib::MP4::File>(file, "N6TagLib3MP44FileE")) {
        TagLib::MP4::Tag *tag = mp4->tag();
        if (tag && tag->contains("covr")) {
            for (const auto &art : tag->item("covr").toCoverArtList()) {
                const char *type = art.format() == TagLib::MP4::CoverArt::PNG ? "image/png" : "image/jpeg";
                offer_picture(tags, art.data(), type, false);
            }
        }
    }
    read_id3v2_pictures(tags, id3);
    relative_volumes(tags, id3);
    if (!has_lyrics) {
        std::string lrc = synchronised_lyrics(id3);
        if (!lrc.empty()) {
            tags.keys.emplace_back("LYRICS");
            tags.values.push_back(std::move(lrc));
        }
    }
}

}  // namespace

extern "C" linnet_taglib_tags *linnet_taglib_read(const char *path) {
    // TagLib reports problems through exceptions only from the standard library (allocation);
    // none may cross into Swift.
    try {
        // Read-only: TagLib otherwise opens files for writing when it may, and closing such a
        // file reports IN_CLOSE_WRITE to every inotify watcher (the folder watcher then read
        // each file again, over and over); it also needs no write permission this way.
        TagLib::FileStream stream(path, true);
        if (!stream.isOpen()) return nullptr;
        TagLib::FileRef ref(&stream, true, TagLib::AudioProperties::Average);
        TagLib::File *file = ref.file();
        if (ref.isNull() || !file || !file->isValid()) return nullptr;
        auto *tags = new linnet_taglib_tags();
        bool has_lyrics = false;
        const TagLib::PropertyMap properties = file->properties();
        for (const auto &entry : properties) {
            std::string key = entry.first.to8Bit(true);
            // ID3v2 names a described USLT frame "LYRICS:<description>"; it is still lyrics.
            if (key.compare(0, 7, "LYRICS:") == 0) key = "LYRICS";
            if (key == "LYRICS") has_lyrics = true;
            for (const auto &value : entry.second) {
                tags->keys.push_back(key);
                tags->values.push_back(value.to8Bit(true));
            }
        }
        if (const TagLib::AudioProperties *audio = file->audioProperties()) {
            const int ms = audio->lengthInMilliseconds();
            if (ms > 0) tags->length_ms = ms;
        }
        read_pictures_and_extras(*tags, file, has_lyrics);
        return tags;
    } catch (...) {
        return nullptr;
    }
}

extern "C" void linnet_taglib_free(linnet_taglib_tags *tags) { delete tags; }

extern "C" size_t linnet_taglib_count(const linnet_taglib_tags *tags) { return tags->keys.size(); }

extern "C" const char *linnet_taglib_key(const linnet_taglib_tags *tags, size_t index) {
    return tags->keys[index].c_str();
}

extern "C" const char *linnet_taglib_value(const linnet_taglib_tags *tags, size_t index) {
    return tags->values[index].c_str();
}

extern "C" int64_t linnet_taglib_length_ms(const linnet_taglib_tags *tags) { return tags->length_ms; }

extern "C" size_t linnet_taglib_picture_count(const linnet_taglib_tags *tags) { return tags->picture_count; }

extern "C" const uint8_t *linnet_taglib_picture(const linnet_taglib_tags *tags, size_t *size) {
    *size = tags->picture.size();
    return tags->has_picture ? tags->picture.data() : nullptr;
}

extern "C" const char *linnet_taglib_picture_type(const linnet_taglib_tags *tags) {
    return tags->picture_type.c_str();
}
