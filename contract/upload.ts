/** How far an upload (a CV, a blog image) has gone, as the transport reports it. */
export interface UploadProgress {
  loaded: number;
  total: number;
}
