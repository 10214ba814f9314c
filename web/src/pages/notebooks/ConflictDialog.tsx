import { Button, Dialog, Heading, Modal } from 'react-aria-components';

/** A save answered 409 on If-Match: the server copy is newer. Reload it (dropping the edits) or overwrite it. */
export function ConflictDialog(props: { message: string; onReload: () => void; onOverwrite: () => void }) {
  return (
    <Modal isOpen className="modal">
      <Dialog role="alertdialog" className="dialog">
        <Heading slot="title">The server copy is newer</Heading>
        <p>{props.message}</p>
        <p>Reload it to see the other changes (your unsaved edits are dropped), or overwrite it with your copy.</p>
        <div className="row-actions">
          <Button autoFocus onPress={props.onReload}>
            Reload the server copy
          </Button>
          <Button onPress={props.onOverwrite}>Overwrite with my copy</Button>
        </div>
      </Dialog>
    </Modal>
  );
}
