// Where a note stands with its authority: the words of the API's `status` field. In the kernel because
// both the documents (which move a note through them) and the platform's read models over the notes table
// (overview, search, exports) speak them, and the platform never imports the documents.
export type NoteStatus = 'processing' | 'authorized' | 'rejected' | 'denied' | 'canceled' | 'contingency';
