import { Button, ComboBox, Input, Label, ListBox, ListBoxItem, Popover, Text } from 'react-aria-components';

/**
 * A catalog picker (react-aria ComboBox): type-ahead over the workspace's catalogs; a name not in the list is kept
 * as typed (a destination usually does not exist yet). The input's id is `field-<name>` for the error summary.
 */
export function CatalogPicker(props: {
  name: string;
  label: string;
  catalogs: string[];
  value: string;
  error?: string;
  hint?: string;
  onChange: (v: string) => void;
}) {
  const id = `field-${props.name}`;
  return (
    <ComboBox
      id={id}
      className="field"
      allowsCustomValue
      menuTrigger="input"
      inputValue={props.value}
      onInputChange={props.onChange}
      onSelectionChange={(key) => key !== null && props.onChange(String(key))}
      isInvalid={Boolean(props.error)}
      isRequired
    >
      <Label>{props.label} (required)</Label>
      <div>
        <Input name={props.name} />
        <Button aria-label={`Show ${props.label.toLowerCase()} choices`}>▾</Button>
      </div>
      {props.hint && (
        <Text slot="description" className="marker">
          {props.hint}
        </Text>
      )}
      {props.error && (
        <Text slot="errorMessage" className="field-error">
          ⚠ {props.error}
        </Text>
      )}
      <Popover className="dialog">
        <ListBox items={props.catalogs.map((c) => ({ id: c, name: c }))}>
          {(item) => <ListBoxItem id={item.id}>{item.name}</ListBoxItem>}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
