/** What a marker index holds: markers (a file counts once per marker in its name), documents, folders read. */
export interface MarkerIndexSize {
  readonly markers: number;
  readonly documents: number;
  readonly folders: number;
}
