// Splits an answer into the pieces streamed as `delta` events: line by line, long lines in
// word-aligned pieces, so a client sees the text arrive the way a model's would.

export function streamPieces(text: string, maxPiece = 48): string[] {
  const pieces: string[] = [];
  for (const line of text.split(/(?<=\n)/)) {
    let rest = line;
    while (rest.length > maxPiece) {
      const cut = rest.lastIndexOf(' ', maxPiece);
      const at = cut > 0 ? cut + 1 : maxPiece;
      pieces.push(rest.slice(0, at));
      rest = rest.slice(at);
    }
    if (rest) pieces.push(rest);
  }
  return pieces;
}
