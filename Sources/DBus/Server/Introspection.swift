/// Builds `org.freedesktop.DBus.Introspectable.Introspect` XML from the declarations.
enum Introspection {
    static let header = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
        "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">

        """

    /// Peer, Introspectable and Properties, which every exported object implements.
    static let standardInterfaces = """
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg type="s" name="machine_uuid" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg type="s" name="xml_data" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg type="s" name="interface_name" direction="in"/>
              <arg type="s" name="property_name" direction="in"/>
              <arg type="v" name="value" direction="out"/>
            </method>
            <method name="GetAll">
              <arg type="s" name="interface_name" direction="in"/>
              <arg type="a{sv}" name="properties" direction="out"/>
            </method>
            <method name="Set">
              <arg type="s" name="interface_name" direction="in"/>
              <arg type="s" name="property_name" direction="in"/>
              <arg type="v" name="value" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg type="s" name="interface_name"/>
              <arg type="a{sv}" name="changed_properties"/>
              <arg type="as" name="invalidated_properties"/>
            </signal>
          </interface>

        """

    static func document(interfaces: [DBusInterface]?, children: [String]) -> String {
        var xml = header + "<node>\n"
        if let interfaces {
            xml += standardInterfaces
            for interface in interfaces { xml += describe(interface) }
        }
        for child in children { xml += "  <node name=\"\(escape(child))\"/>\n" }
        return xml + "</node>\n"
    }

    private static func describe(_ interface: DBusInterface) -> String {
        var xml = "  <interface name=\"\(interface.name)\">\n"
        for method in interface.methods {
            let arguments = method.inputs.map { argument($0, direction: "in") }
                + method.outputs.map { argument($0, direction: "out") }
            xml += element("method", name: method.name.rawValue, children: arguments + method.annotations.map(annotation))
        }
        for signal in interface.signals {
            let children = signal.arguments.map { argument($0, direction: nil) } + signal.annotations.map(annotation)
            xml += element("signal", name: signal.name.rawValue, children: children)
        }
        for property in interface.properties {
            var annotations = property.annotations
            if property.emitsChangedSignal != .true {
                annotations.insert(
                    DBusAnnotation(
                        name: "org.freedesktop.DBus.Property.EmitsChangedSignal",
                        value: property.emitsChangedSignal.rawValue),
                    at: 0)
            }
            let opening = "    <property name=\"\(property.name)\" type=\"\(escape(property.type.signature))\" access=\"\(property.access.rawValue)\""
            if annotations.isEmpty {
                xml += opening + "/>\n"
            } else {
                xml += opening + ">\n" + annotations.map { "  " + annotation($0) }.joined() + "    </property>\n"
            }
        }
        for annotation in interface.annotations {
            xml += "  " + self.annotation(annotation)
        }
        return xml + "  </interface>\n"
    }

    private static func element(_ tag: String, name: String, children: [String]) -> String {
        if children.isEmpty { return "    <\(tag) name=\"\(name)\"/>\n" }
        return "    <\(tag) name=\"\(name)\">\n" + children.joined() + "    </\(tag)>\n"
    }

    private static func argument(_ argument: DBusArgument, direction: String?) -> String {
        var xml = "      <arg type=\"\(escape(argument.type.signature))\""
        if let name = argument.name { xml += " name=\"\(escape(name))\"" }
        if let direction { xml += " direction=\"\(direction)\"" }
        let annotations = argument.annotations + (argument.limit?.annotations ?? [])
        if annotations.isEmpty { return xml + "/>\n" }
        return xml + ">\n" + annotations.map { "    " + annotation($0) }.joined() + "      </arg>\n"
    }

    private static func annotation(_ annotation: DBusAnnotation) -> String {
        "      <annotation name=\"\(escape(annotation.name))\" value=\"\(escape(annotation.value))\"/>\n"
    }

    private static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
