// In-page: file inputs (what one takes, putting files in from their bytes) and reading a download the page holds
// itself (a blob: or data: URL).

export interface FileInputInfo {
  fileInput: boolean;
  multiple: boolean;
  disabled: boolean;
}

export function fileInputInfo(element: Element): FileInputInfo {
  const input = element instanceof HTMLInputElement && element.type === 'file' ? element : null;
  return { fileInput: input !== null, multiple: input?.multiple === true, disabled: input?.disabled === true };
}

/**
 * Sets the files as a person's choice would: the input's FileList replaced whole, then `input` and `change` fired.
 * Used where the browser may not read the files from disk (the person's Chrome without file access for the extension).
 */
export function putFiles(element: Element, files: { name: string; mimeType: string; base64: string }[]): number {
  if (!(element instanceof HTMLInputElement) || element.type !== 'file')
    throw new Error('NOT_FILE_INPUT: the element is not a file input.');
  const transfer = new DataTransfer();
  for (const file of files) {
    const binary = atob(file.base64);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    transfer.items.add(new File([bytes], file.name, { type: file.mimeType }));
  }
  element.files = transfer.files;
  element.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return element.files.length;
}

/** The link the element is, or sits in: where it points and the file name its `download` attribute asks for. */
export function downloadLink(element: Element): { href: string; name: string | null } | null {
  const link = element.closest('a[href], area[href]') as HTMLAnchorElement | HTMLAreaElement | null;
  if (!link) return null;
  return { href: link.href, name: link.getAttribute('download') || null };
}

/**
 * A blob: or data: URL's bytes, which exist only inside the page (no request carries them), up to `max` bytes.
 * Fails with DOWNLOAD_FAILED when the page revoked the blob already.
 */
export async function readPageUrl(
  url: string,
  max: number,
): Promise<{ base64: string; mimeType: string; size: number }> {
  const response = await fetch(url).catch(() => {
    throw new Error(`DOWNLOAD_FAILED: the page no longer holds ${url.slice(0, 80)} (revoked).`);
  });
  const blob = await response.blob();
  if (blob.size > max) throw new Error(`DOWNLOAD_TOO_LARGE: ${blob.size} bytes, over the cap of ${max}.`);
  const dataUrl = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new Error('DOWNLOAD_FAILED: the page could not read its own file.'));
    reader.readAsDataURL(blob);
  });
  return { base64: dataUrl.slice(dataUrl.indexOf(',') + 1), mimeType: blob.type, size: blob.size };
}
