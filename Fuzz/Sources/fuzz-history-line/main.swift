import FuzzDriver
import NoteStore

// The reader of a line of history (the blob of a row of `history_line` in a baseline): any
// bytes are refused or read, and what is read reads back the same once written again.
fuzz { data in
    if HistoryLineBlob.readsBack(data) == false { fatalError("a line of history read back otherwise") }
}
