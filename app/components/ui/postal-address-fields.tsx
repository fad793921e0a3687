import type { PostalAddress } from "~/domain/postal-address";
import { Field, SelectField } from "./field";

type AddressField = keyof PostalAddress;

/**
 * The fields of a postal address (app/domain/postal-address.ts checks them), the same wherever
 * something is posted. Named `${prefix}${field}`; `values` and `errors` are keyed by those names (what
 * the form sent back), `saved` is the address kept before, shown when the form sent nothing.
 */
export function PostalAddressFields({
  prefix = "",
  values,
  errors,
  saved,
  countries,
}: {
  prefix?: string;
  values?: Record<string, string | undefined>;
  errors?: Record<string, string | undefined>;
  saved?: Partial<Record<AddressField, string | null>> | null;
  countries: { value: string; label: string }[];
}) {
  const field = (name: AddressField) => ({
    name: `${prefix}${name}`,
    defaultValue: values?.[`${prefix}${name}`] ?? saved?.[name] ?? undefined,
    error: errors?.[`${prefix}${name}`],
  });
  return (
    <>
      <Field label="Who it goes to" autoComplete="name" {...field("name")} />
      <Field label="Street address" autoComplete="address-line1" {...field("line1")} />
      <Field label="Flat, suite or floor (optional)" autoComplete="address-line2" {...field("line2")} />
      <Field label="Town or city" autoComplete="address-level2" {...field("city")} />
      <Field
        label="State, province or county"
        hint="Needed in the United States, Canada and Australia."
        autoComplete="address-level1"
        {...field("region")}
      />
      <Field label="Postal code" autoComplete="postal-code" {...field("postalCode")} />
      <SelectField
        label="Country"
        autoComplete="country"
        options={countries}
        {...field("country")}
        defaultValue={field("country").defaultValue ?? "US"}
      />
    </>
  );
}
