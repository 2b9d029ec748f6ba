import FuzzDriver
import NoteSync

// The transaction log reader: framing, checksum, header and change lines.
fuzz { data in _ = try? LogCodec.decode(data) }
