import { useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';

/** A button that asks before doing something that cannot be undone (keyboard: Enter opens, Escape cancels). */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button isDisabled={props.disabled}>{props.label}</Button>
      <Modal isDismissable className="modal">
        <Dialog role="alertdialog" className="dialog">
          <Heading slot="title">{props.label}</Heading>
          <p>{props.question}</p>
          <div className="row-actions">
            <Button autoFocus onPress={() => setOpen(false)}>
              Keep it
            </Button>
            <Button
              onPress={() => {
                setOpen(false);
                props.onConfirm();
              }}
            >
              {props.confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </DialogTrigger>
  );
}
