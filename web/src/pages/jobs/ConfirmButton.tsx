import { useId, useState } from 'react';
import { Button, Dialog, DialogTrigger, Heading, Modal } from 'react-aria-components';
import { RoleNote, type Can } from '../../shell/roles';

/** A button that asks before doing something that cannot be undone (keyboard: Enter opens, Escape cancels). */
export function ConfirmButton(props: {
  label: string;
  question: string;
  confirmLabel: string;
  disabled?: boolean;
  /** The caller's permission (shell/roles.tsx): disabled with the reason beside it when the role is too low. */
  can?: Can;
  onConfirm: () => void;
}) {
  const [open, setOpen] = useState(false);
  const noteId = useId();
  const denied = props.can && !props.can.allowed;
  return (
    <DialogTrigger isOpen={open} onOpenChange={setOpen}>
      <Button isDisabled={props.disabled || denied} aria-describedby={denied ? noteId : undefined}>
        {props.label}
      </Button>
      {props.can && <RoleNote can={props.can} id={noteId} />}
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
