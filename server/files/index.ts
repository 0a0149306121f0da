/**
 * Files in the database (infrastructure, like db/ and jobs/): the one file store any server reads and writes.
 * server/files/store.ts says how.
 */
export {
  ARCHIVE_FILE_KIND, CHUNK_BYTES, FileGone, FileWriter, completeFiles, fileBytes, fileChunks, fileStream, jobFile, logFileSweepsTo, removeExpiredFiles, removeFiles,
  removeJobFiles, storeStream, storedFile, type FileSpec, type StoredFileRow, type WrittenFile,
} from './store';
